/**
 * Sign-up (docs/contract.md §4): name, e-mail, password, confirm password. The answer is always "check
 * your e-mail" (the same whether or not the address has an account, so nobody learns it here); the
 * link in the mail creates the account and signs it in (/verify). The notice names the links that
 * help someone who already has an account: log in, reset the password. Refusals show at their
 * field or above the button, not in a dialog.
 */

import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { type Locale, type RegisterResponse, registerBodySchema } from '@openpug/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Navigate, Link as RouterLink, useNavigate } from 'react-router';
import {
  AccountForm,
  AuthFooterLink,
  EmailField,
  FormProblem,
  OrDivider,
} from '../../features/accounts/AccountForm';
import { AuthCard } from '../../features/accounts/AuthCard';
import { FormTextField, muiField } from '../../features/accounts/FormTextField';
import { fieldOfServerKey, formResolver, serverFieldMessage } from '../../features/accounts/formRules';
import { PasswordFields } from '../../features/accounts/PasswordFields';
import { SteamButton } from '../../features/accounts/SteamButton';
import { LOGIN_PATH } from '../../features/accounts/sessionRules';
import { ApiError, api } from '../../features/api/client';
import { setLoading } from '../../features/app-state/store';
import { useSession } from '../../features/session/store';

interface SignupForm {
  name: string;
  email: string;
  password: string;
  confirmPassword: string;
}

const resolver = formResolver<SignupForm>(registerBodySchema, {
  required: { name: 'required', email: 'required', password: 'password', confirmPassword: 'required' },
  confirm: { field: 'confirmPassword', equals: 'password' },
});

export function SignupScreen() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const loggedIn = useSession((s) => s.isTokenSet);
  const form = useForm<SignupForm>({
    resolver,
    defaultValues: { name: '', email: '', password: '', confirmPassword: '' },
  });
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = form;
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  if (loggedIn) return <Navigate to="/home" replace />;

  const onSubmit = handleSubmit(async (values) => {
    setProblem(null);
    setLoading(true);
    try {
      const res = await api.post<RegisterResponse>(
        '/register',
        {
          name: values.name.trim(),
          email: values.email.trim(),
          password: values.password,
          confirmPassword: values.confirmPassword,
          locale: i18n.language as Locale,
        },
        { expect: 202, silent: true },
      );
      setLoading(false);
      setSentTo(res.email);
    } catch (err) {
      const key = err instanceof ApiError ? err.key : 'ERROR';
      const field = fieldOfServerKey(key, ['name', 'email', 'password', 'confirmPassword'] as const);
      if (field)
        form.setError(field, { type: 'server', message: serverFieldMessage(key) }, { shouldFocus: true });
      else setProblem(key);
    }
  });

  if (sentTo)
    return (
      <AuthCard
        title={t('accounts.signup.sentTitle')}
        footer={<AuthFooterLink to={LOGIN_PATH}>{t('accounts.forgot.backToLogin')}</AuthFooterLink>}
      >
        <Stack spacing={2}>
          <Alert severity="success" variant="outlined" role="status" data-testid="signup-sent">
            {t('accounts.signup.sent', { email: sentTo })}
          </Alert>
          <span>
            {t('accounts.signup.haveAccountHint')}{' '}
            <Link component={RouterLink} to={LOGIN_PATH} sx={{ fontWeight: 600 }}>
              {t('accounts.signup.loginLink')}
            </Link>
            {' · '}
            <Link component={RouterLink} to="/forgot" sx={{ fontWeight: 600 }}>
              {t('accounts.login.resetLink')}
            </Link>
          </span>
        </Stack>
      </AuthCard>
    );

  return (
    <AuthCard
      title={t('accounts.signup.title')}
      subtitle={t('accounts.signup.subtitle')}
      footer={
        <AuthFooterLink prompt={t('accounts.signup.haveAccount')} to={LOGIN_PATH}>
          {t('accounts.signup.loginLink')}
        </AuthFooterLink>
      }
    >
      <SteamButton onLoggedIn={() => navigate('/home')} />
      <OrDivider />
      <AccountForm
        onSubmit={onSubmit}
        label={t('accounts.signup.formLabel')}
        submitLabel={t('accounts.signup.submit')}
        submitting={isSubmitting}
        problem={problem && <FormProblem message={t(problem)} />}
      >
        <FormTextField
          {...muiField(register('name'))}
          label={t('accounts.fields.name')}
          autoComplete="nickname"
          autoFocus
          fieldError={errors.name}
        />
        <EmailField form={form} name="email" />
        <PasswordFields
          form={form}
          chosen={{ name: 'password', label: 'password', confirm: 'confirmPassword' }}
        />
      </AccountForm>
    </AuthCard>
  );
}
