/**
 * Login (docs/contract.md §4): Steam through the popup, or e-mail and password. Both store the session and go
 * to /home; a Steam account without a name then gets the name dialog (layout). Refusals show in the
 * form, not in a dialog: a wrong e-mail or password (one answer for both) at the password with the
 * reset link beside it, a blocked account with the reset link that unlocks it. A banned player
 * (signed out by the ban, or refused with 403 BANNED) reads why and until when at the top.
 */

import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { errorBodySchema, loginBodySchema } from '@openpug/shared';
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
import { fieldOfServerKey, formResolver, serverFieldMessage } from '../../features/accounts/formRules';
import { PasswordFields } from '../../features/accounts/PasswordFields';
import { SteamButton } from '../../features/accounts/SteamButton';
import { requestSession, SIGNUP_PATH } from '../../features/accounts/sessionRules';
import { ApiError } from '../../features/api/client';
import { rememberSignInBan, SignInBanNotice } from '../../features/moderation';
import { useSession } from '../../features/session/store';

interface LoginForm {
  email: string;
  password: string;
}

const resolver = formResolver<LoginForm>(loginBodySchema, {
  required: { email: 'required', password: 'password' },
});

export function LoginScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const loggedIn = useSession((s) => s.isTokenSet);
  const form = useForm<LoginForm>({ resolver, defaultValues: { email: '', password: '' } });
  const [problem, setProblem] = useState<string | null>(null);
  const {
    handleSubmit,
    formState: { isSubmitting },
  } = form;

  if (loggedIn) return <Navigate to="/home" replace />;

  const onSubmit = handleSubmit(async (values) => {
    setProblem(null);
    try {
      await requestSession(
        '/login',
        { email: values.email.trim(), password: values.password },
        { silent: true },
      );
      rememberSignInBan(null);
      navigate('/home');
    } catch (err) {
      // WRONG_CREDENTIALS (an unknown e-mail or a wrong password alike) at the password field;
      // BANNED with its reason and end at the top; BLOCKED_USER, rate limits and lost
      // connections above the button.
      const key = err instanceof ApiError ? err.key : 'ERROR';
      const ban = err instanceof ApiError ? errorBodySchema.safeParse(err.body).data?.errors.ban : undefined;
      if (key === 'BANNED' && ban) {
        rememberSignInBan(ban);
        return;
      }
      const field = fieldOfServerKey(key, ['email', 'password'] as const);
      if (field)
        form.setError(field, { type: 'server', message: serverFieldMessage(key) }, { shouldFocus: true });
      else setProblem(key);
    }
  });

  return (
    <AuthCard
      title={t('accounts.login.title')}
      subtitle={t('accounts.login.subtitle')}
      footer={
        <AuthFooterLink prompt={t('accounts.login.noAccount')} to={SIGNUP_PATH}>
          {t('accounts.login.signupLink')}
        </AuthFooterLink>
      }
    >
      <SignInBanNotice />
      <SteamButton
        onLoggedIn={() => {
          rememberSignInBan(null);
          navigate('/home');
        }}
      />
      <OrDivider />
      <AccountForm
        onSubmit={onSubmit}
        label={t('accounts.login.formLabel')}
        submitLabel={t('accounts.login.submit')}
        submitting={isSubmitting}
        problem={
          problem && (
            <FormProblem
              message={t(problem === 'BLOCKED_USER' ? 'accounts.login.blocked' : problem)}
              links={
                problem === 'BLOCKED_USER' ? [{ to: '/forgot', label: t('accounts.login.resetLink') }] : []
              }
            />
          )
        }
      >
        <EmailField form={form} name="email" autoFocus />
        <PasswordFields form={form} current={{ name: 'password', label: 'password' }} />
        <Box sx={{ textAlign: 'right', mt: '4px !important' }}>
          <Link component={RouterLink} to="/forgot" variant="body2">
            {t('accounts.login.forgotLink')}
          </Link>
        </Box>
      </AccountForm>
    </AuthCard>
  );
}
