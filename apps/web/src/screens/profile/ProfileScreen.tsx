/**
 * /profile (docs/contract.md §2, §4): name and e-mail (a new address must be verified again), and the
 * password change with current, new and confirm fields.
 */

import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  type ChangePasswordResponse,
  changePasswordBodySchema,
  type Profile,
  profileUpdateBodySchema,
} from '@openpug/shared';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextField, muiField } from '../../features/accounts/FormTextField';
import { formResolver } from '../../features/accounts/formRules';
import { LogoutButton } from '../../features/accounts/LogoutButton';
import { PasswordFields } from '../../features/accounts/PasswordFields';
import { api } from '../../features/api/client';
import { setLoading, setSuccessMessage } from '../../features/app-state/store';
import { saveSession, updateSessionUser, useSession } from '../../features/session/store';
import { ScreenPage } from '../../ui/ScreenPage';

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" component="section" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 2 }}>
      <Typography variant="h2" sx={{ fontSize: '1.2rem', mb: 2 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

interface ProfileForm {
  name: string;
  email: string;
}
// A Steam account may have no e-mail yet: an empty e-mail is simply not sent.
const profileResolver = formResolver<ProfileForm>(
  profileUpdateBodySchema,
  { required: { name: 'required' } },
  ({ name, email }) => (email.trim() ? { name, email } : { name }),
);

function ProfileDetails() {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ProfileForm>({
    resolver: profileResolver,
    values: { name: String(user?.name ?? ''), email: String(user?.email ?? '') },
  });
  const onSubmit = handleSubmit(async (values) => {
    const body: Record<string, string> = { name: values.name.trim() };
    const email = values.email.trim();
    if (email && email.toLowerCase() !== String(user?.email ?? '')) body.email = email;
    setLoading(true);
    try {
      const profile = await api.patch<Profile>('/profile', body);
      setLoading(false);
      updateSessionUser(profile as unknown as Record<string, unknown>);
      setSuccessMessage({ key: 'myProfile.PROFILE_SAVED_SUCCESSFULLY' });
    } catch {
      // Error dialog (EMAIL_ALREADY_EXISTS …).
    }
  });
  return (
    <Section title={t('accounts.profile.detailsTitle')}>
      <Box component="form" noValidate onSubmit={onSubmit} aria-label={t('accounts.profile.detailsTitle')}>
        <Stack spacing={2}>
          <FormTextField
            {...muiField(register('name'))}
            label={t('accounts.fields.name')}
            fieldError={errors.name}
          />
          <FormTextField
            {...muiField(register('email'))}
            type="email"
            label={t('accounts.fields.email')}
            fieldError={errors.email}
            helperText={
              user?.email && user.verified === false
                ? t('accounts.profile.unverified')
                : t('accounts.profile.emailHint')
            }
          />
          <Box>
            <Button type="submit" variant="contained" disabled={isSubmitting}>
              {t('accounts.profile.save')}
            </Button>
          </Box>
        </Stack>
      </Box>
    </Section>
  );
}

interface PasswordForm {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}
const passwordResolver = formResolver<PasswordForm>(changePasswordBodySchema, {
  required: { oldPassword: 'password', newPassword: 'password', confirmPassword: 'required' },
  confirm: { field: 'confirmPassword', equals: 'newPassword' },
});

function ChangePassword() {
  const { t } = useTranslation();
  const form = useForm<PasswordForm>({
    resolver: passwordResolver,
    defaultValues: { oldPassword: '', newPassword: '', confirmPassword: '' },
  });
  const {
    handleSubmit,
    reset,
    formState: { isSubmitting },
  } = form;
  const onSubmit = handleSubmit(async ({ oldPassword, newPassword }) => {
    setLoading(true);
    try {
      // The change ends every session issued before it, this one included: carry on with the
      // fresh token it answers (the socket signs in again with it).
      const fresh = await api.post<ChangePasswordResponse>('/profile/changePassword', {
        oldPassword,
        newPassword,
      });
      saveSession({ token: fresh.token, expiry: String(fresh.expiresAt) });
      setLoading(false);
      reset();
      setSuccessMessage({ key: 'myProfile.PASSWORD_CHANGED' });
    } catch {
      // Error dialog (WRONG_PASSWORD).
    }
  });
  return (
    <Section title={t('accounts.profile.passwordTitle')}>
      <Box component="form" noValidate onSubmit={onSubmit} aria-label={t('accounts.profile.passwordTitle')}>
        <Stack spacing={2}>
          <PasswordFields
            form={form}
            current={{ name: 'oldPassword', label: 'currentPassword' }}
            chosen={{ name: 'newPassword', label: 'newPassword', confirm: 'confirmPassword' }}
          />
          <Box>
            <Button type="submit" variant="contained" disabled={isSubmitting}>
              {t('accounts.profile.changePassword')}
            </Button>
          </Box>
        </Stack>
      </Box>
    </Section>
  );
}

export function ProfileScreen() {
  const { t } = useTranslation();
  return (
    <ScreenPage title={t('screens.profile.title')}>
      <Stack spacing={3} sx={{ maxWidth: 640 }}>
        <ProfileDetails />
        <ChangePassword />
        <Box>
          <LogoutButton />
        </Box>
      </Stack>
    </ScreenPage>
  );
}
