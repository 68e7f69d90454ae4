/**
 * Sign-up (SPEC §4): name, e-mail, password, confirm password. On 201 the session is stored and
 * the app goes to /home; the server sends the verification e-mail in the chosen language.
 */

import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { type Locale, registerBodySchema, type SessionResponse } from '@openpug/shared';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Navigate, Link as RouterLink, useNavigate } from 'react-router';
import { AuthCard } from '../../features/accounts/AuthCard';
import { FormTextField, muiField } from '../../features/accounts/FormTextField';
import { formResolver } from '../../features/accounts/formRules';
import { SteamButton } from '../../features/accounts/SteamButton';
import { completeLogin, LOGIN_PATH } from '../../features/accounts/sessionRules';
import { api } from '../../features/api/client';
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
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignupForm>({
    resolver,
    defaultValues: { name: '', email: '', password: '', confirmPassword: '' },
  });

  if (loggedIn) return <Navigate to="/home" replace />;

  const onSubmit = handleSubmit(async (values) => {
    setLoading(true);
    try {
      const response = await api.post<SessionResponse>(
        '/register',
        {
          name: values.name.trim(),
          email: values.email.trim(),
          password: values.password,
          confirmPassword: values.confirmPassword,
          locale: i18n.language as Locale,
        },
        { expect: 201 },
      );
      setLoading(false);
      completeLogin(response);
      navigate('/home');
    } catch {
      // Shown by the error dialog (EMAIL_ALREADY_EXISTS …).
    }
  });

  return (
    <AuthCard
      title={t('accounts.signup.title')}
      subtitle={t('accounts.signup.subtitle')}
      footer={
        <>
          {t('accounts.signup.haveAccount')}{' '}
          <Link component={RouterLink} to={LOGIN_PATH} sx={{ fontWeight: 600 }}>
            {t('accounts.signup.loginLink')}
          </Link>
        </>
      }
    >
      <Box component="form" noValidate onSubmit={onSubmit} aria-label={t('accounts.signup.formLabel')}>
        <Stack spacing={2}>
          <FormTextField
            {...muiField(register('name'))}
            label={t('accounts.fields.name')}
            autoComplete="nickname"
            fieldError={errors.name}
          />
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
            autoComplete="new-password"
            fieldError={errors.password}
          />
          <FormTextField
            {...muiField(register('confirmPassword'))}
            type="password"
            label={t('accounts.fields.confirmPassword')}
            autoComplete="new-password"
            fieldError={errors.confirmPassword}
          />
          <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
            {t('accounts.signup.submit')}
          </Button>
        </Stack>
      </Box>
      <Divider sx={{ my: 3, color: 'text.secondary', fontSize: 14 }}>{t('accounts.login.or')}</Divider>
      <SteamButton onLoggedIn={() => navigate('/home')} />
    </AuthCard>
  );
}
