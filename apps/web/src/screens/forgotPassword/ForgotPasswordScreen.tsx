/**
 * /forgot (SPEC §4): asks for the reset link. A 200 sets resetEmailSent and shows the message
 * with the e-mail address, with no timeout. The answer is the same whether or not the account exists.
 */

import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { forgotBodySchema } from '@openpug/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { AuthCard } from '../../features/accounts/AuthCard';
import { FormTextField, muiField } from '../../features/accounts/FormTextField';
import { formResolver } from '../../features/accounts/formRules';
import { LOGIN_PATH } from '../../features/accounts/sessionRules';
import { api } from '../../features/api/client';
import { setLoading, setSuccessMessage } from '../../features/app-state/store';

interface ForgotForm {
  email: string;
}
const resolver = formResolver<ForgotForm>(forgotBodySchema, { required: { email: 'required' } });

export function ForgotPasswordScreen() {
  const { t } = useTranslation();
  const [resetEmailSent, setResetEmailSent] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ForgotForm>({ resolver, defaultValues: { email: '' } });

  const onSubmit = handleSubmit(async ({ email }) => {
    setLoading(true);
    try {
      const res = await api.post<{ sent: true; email: string }>('/forgot', { email: email.trim() });
      setLoading(false);
      setResetEmailSent(res.email);
      setSuccessMessage({ key: 'accounts.forgot.sent', params: { email: res.email }, timeout: 0 });
    } catch {
      // Error dialog.
    }
  });

  return (
    <AuthCard
      title={t('screens.forgotPassword.title')}
      subtitle={resetEmailSent ? undefined : t('accounts.forgot.subtitle')}
      footer={
        <Link component={RouterLink} to={LOGIN_PATH} sx={{ fontWeight: 600 }}>
          {t('accounts.forgot.backToLogin')}
        </Link>
      }
    >
      {resetEmailSent ? (
        <Alert severity="success" variant="outlined" role="status">
          {t('accounts.forgot.sent', { email: resetEmailSent })}
        </Alert>
      ) : (
        <Box component="form" noValidate onSubmit={onSubmit}>
          <Stack spacing={2}>
            <FormTextField
              {...muiField(register('email'))}
              type="email"
              label={t('accounts.fields.email')}
              autoComplete="email"
              fieldError={errors.email}
            />
            <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
              {t('accounts.forgot.submit')}
            </Button>
          </Stack>
        </Box>
      )}
    </AuthCard>
  );
}
