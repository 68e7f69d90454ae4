/**
 * /reset/:id (docs/contract.md §4): a new password and its confirmation. 200 hides the inputs and shows
 * 'Password changed successfully'; 404 (link unknown or used) also hides them.
 */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { newPasswordSchema } from '@openpug/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { z } from 'zod';
import { AccountForm } from '../../features/accounts/AccountForm';
import { AuthCard } from '../../features/accounts/AuthCard';
import { formResolver } from '../../features/accounts/formRules';
import { PasswordFields } from '../../features/accounts/PasswordFields';
import { LOGIN_PATH } from '../../features/accounts/sessionRules';
import { ApiError, api } from '../../features/api/client';
import { setLoading } from '../../features/app-state/store';

interface ResetForm {
  password: string;
  confirmPassword: string;
}
// The form checks the fields; the id comes from the link (resetBodySchema on the server).
const resolver = formResolver<ResetForm>(z.object({ password: newPasswordSchema }), {
  required: { password: 'password', confirmPassword: 'required' },
  confirm: { field: 'confirmPassword', equals: 'password' },
});

export function ResetPasswordScreen() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const [showChangePasswordInputs, setShowInputs] = useState(true);
  const [outcome, setOutcome] = useState<'changed' | 'notFound' | null>(null);
  const form = useForm<ResetForm>({ resolver, defaultValues: { password: '', confirmPassword: '' } });
  const {
    handleSubmit,
    formState: { isSubmitting },
  } = form;

  const onSubmit = handleSubmit(async (values) => {
    setLoading(true);
    try {
      await api.post('/reset', { id, ...values });
      setLoading(false);
      setShowInputs(false);
      setOutcome('changed');
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        setShowInputs(false);
        setOutcome('notFound');
      }
    }
  });

  return (
    <AuthCard
      title={t('screens.resetPassword.title')}
      subtitle={showChangePasswordInputs ? t('accounts.reset.subtitle') : undefined}
    >
      {showChangePasswordInputs && (
        <AccountForm onSubmit={onSubmit} submitLabel={t('accounts.reset.submit')} submitting={isSubmitting}>
          <PasswordFields
            form={form}
            chosen={{ name: 'password', label: 'newPassword', confirm: 'confirmPassword' }}
          />
        </AccountForm>
      )}
      {outcome === 'changed' && (
        <Stack spacing={3}>
          <Alert severity="success" variant="outlined" role="status">
            {t('accounts.reset.changed')}
          </Alert>
          <Button component={RouterLink} to={LOGIN_PATH} variant="contained">
            {t('accounts.verify.toLogin')}
          </Button>
        </Stack>
      )}
      {outcome === 'notFound' && (
        <Stack spacing={3}>
          <Alert severity="error" variant="outlined">
            {t('NOT_FOUND_OR_ALREADY_USED')}
          </Alert>
          <Button component={RouterLink} to="/forgot" variant="outlined">
            {t('accounts.reset.requestNew')}
          </Button>
        </Stack>
      )}
    </AuthCard>
  );
}
