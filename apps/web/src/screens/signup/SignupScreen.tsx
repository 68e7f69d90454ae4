/**
 * Sign-up (docs/contract.md §4): name, e-mail, password, confirm password. On 201 the session is stored and
 * the app goes to /home; the server sends the verification e-mail in the chosen language.
 */

import { type Locale, registerBodySchema } from '@openpug/shared';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { AccountForm, AuthFooterLink, EmailField, OrDivider } from '../../features/accounts/AccountForm';
import { AuthCard } from '../../features/accounts/AuthCard';
import { FormTextField, muiField } from '../../features/accounts/FormTextField';
import { formResolver } from '../../features/accounts/formRules';
import { PasswordFields } from '../../features/accounts/PasswordFields';
import { SteamButton } from '../../features/accounts/SteamButton';
import { LOGIN_PATH, requestSession } from '../../features/accounts/sessionRules';
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

  if (loggedIn) return <Navigate to="/home" replace />;

  const onSubmit = handleSubmit(async (values) => {
    try {
      await requestSession(
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
