/**
 * Login (SPEC §4): Steam through the popup, or e-mail and password. Both store the session and go
 * to /home; a Steam account without a name then gets the name dialog (layout).
 */

import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { loginBodySchema, type SessionResponse } from '@openpug/shared';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Navigate, Link as RouterLink, useNavigate } from 'react-router';
import { AuthCard } from '../../features/accounts/AuthCard';
import { FormTextField, muiField } from '../../features/accounts/FormTextField';
import { formResolver } from '../../features/accounts/formRules';
import { SteamButton } from '../../features/accounts/SteamButton';
import { completeLogin, SIGNUP_PATH } from '../../features/accounts/sessionRules';
import { api } from '../../features/api/client';
import { setLoading } from '../../features/app-state/store';
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
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginForm>({ resolver, defaultValues: { email: '', password: '' } });

  if (loggedIn) return <Navigate to="/home" replace />;

  const onSubmit = handleSubmit(async (values) => {
    setLoading(true);
    try {
      const response = await api.post<SessionResponse>('/login', {
        email: values.email.trim(),
        password: values.password,
      });
      setLoading(false);
      completeLogin(response);
      navigate('/home');
    } catch {
      // The error dialog shows the key (WRONG_PASSWORD, USER_DOES_NOT_EXIST, BLOCKED_USER …).
    }
  });

  return (
    <AuthCard
      title={t('accounts.login.title')}
      subtitle={t('accounts.login.subtitle')}
      footer={
        <>
          {t('accounts.login.noAccount')}{' '}
          <Link component={RouterLink} to={SIGNUP_PATH} sx={{ fontWeight: 600 }}>
            {t('accounts.login.signupLink')}
          </Link>
        </>
      }
    >
      <SteamButton onLoggedIn={() => navigate('/home')} />
      <Divider sx={{ my: 3, color: 'text.secondary', fontSize: 14 }}>{t('accounts.login.or')}</Divider>
      <Box component="form" noValidate onSubmit={onSubmit} aria-label={t('accounts.login.formLabel')}>
        <Stack spacing={2}>
          <FormTextField
            {...muiField(register('email'))}
            type="email"
            label={t('accounts.fields.email')}
            autoComplete="email"
            fieldError={errors.email}
          />
          <FormTextField
            {...muiField(register('password'))}
            type="password"
            label={t('accounts.fields.password')}
            autoComplete="current-password"
            fieldError={errors.password}
          />
          <Box sx={{ textAlign: 'right', mt: '4px !important' }}>
            <Link component={RouterLink} to="/forgot" variant="body2">
              {t('accounts.login.forgotLink')}
            </Link>
          </Box>
          <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
            {t('accounts.login.submit')}
          </Button>
        </Stack>
      </Box>
    </AuthCard>
  );
}
