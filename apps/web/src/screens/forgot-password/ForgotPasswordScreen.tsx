/**
 * /forgot (docs/contract.md §4): asks for the reset link. A 200 sets resetEmailSent and shows the message
 * with the e-mail address once, inline in place of the form (no snackbar copy of it). The answer is the
 * same whether or not the account exists.
 */

import Alert from '@mui/material/Alert';
import { forgotBodySchema } from '@openpug/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { AccountForm, AuthFooterLink, EmailField } from '../../features/accounts/AccountForm';
import { AuthCard } from '../../features/accounts/AuthCard';
import { formResolver } from '../../features/accounts/formRules';
import { LOGIN_PATH } from '../../features/accounts/sessionRules';
import { api } from '../../features/api/client';
import { setLoading } from '../../features/app-state/store';

interface ForgotForm {
  email: string;
}
const resolver = formResolver<ForgotForm>(forgotBodySchema, { required: { email: 'required' } });

export function ForgotPasswordScreen() {
  const { t } = useTranslation();
  const [resetEmailSent, setResetEmailSent] = useState<string | null>(null);
  const form = useForm<ForgotForm>({ resolver, defaultValues: { email: '' } });
  const {
    handleSubmit,
    formState: { isSubmitting },
  } = form;

  const onSubmit = handleSubmit(async ({ email }) => {
    setLoading(true);
    try {
      const res = await api.post<{ sent: true; email: string }>('/forgot', { email: email.trim() });
      setLoading(false);
      setResetEmailSent(res.email);
    } catch {
      // Error dialog.
    }
  });

  return (
    <AuthCard
      title={t('screens.forgotPassword.title')}
      subtitle={resetEmailSent ? undefined : t('accounts.forgot.subtitle')}
      footer={<AuthFooterLink to={LOGIN_PATH}>{t('accounts.forgot.backToLogin')}</AuthFooterLink>}
    >
      {resetEmailSent ? (
        <Alert severity="success" variant="outlined" role="status">
          {t('accounts.forgot.sent', { email: resetEmailSent })}
        </Alert>
      ) : (
        <AccountForm onSubmit={onSubmit} submitLabel={t('accounts.forgot.submit')} submitting={isSubmitting}>
          <EmailField form={form} name="email" autoFocus />
        </AccountForm>
      )}
    </AuthCard>
  );
}
