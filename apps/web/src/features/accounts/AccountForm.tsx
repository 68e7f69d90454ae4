import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import type { FormEventHandler, ReactNode } from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { FormTextField, muiField } from './FormTextField';

/**
 * The form of the login, sign-up, forgot and reset screens: the fields stacked, then the large
 * submit button, disabled while the request runs.
 */
export function AccountForm({
  onSubmit,
  label,
  submitLabel,
  submitting,
  problem,
  children,
}: {
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** The form's accessible name, where the screen has more than one way in. */
  label?: string;
  submitLabel: string;
  submitting: boolean;
  /** A refusal that belongs to no single field, shown above the button (see FormProblem). */
  problem?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-label={label}>
      <Stack spacing={2}>
        {children}
        {problem}
        <Button type="submit" variant="contained" size="large" disabled={submitting}>
          {submitLabel}
        </Button>
      </Stack>
    </Box>
  );
}

/**
 * The e-mail input of an account form (`name` is the form's e-mail field). `autoFocus` puts the
 * cursor there on screens that start with it (login), so keyboard users need no Tab round.
 */
export function EmailField<T extends FieldValues>({
  form,
  name,
  autoFocus = false,
}: {
  form: UseFormReturn<T>;
  name: Path<T>;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <FormTextField
      {...muiField(form.register(name))}
      type="email"
      label={t('accounts.fields.email')}
      autoComplete="email"
      autoFocus={autoFocus}
      fieldError={form.getFieldState(name, form.formState).error}
    />
  );
}

/** The link in an account card's footer to the neighbouring screen, after an optional prompt. */
export function AuthFooterLink({
  prompt,
  to,
  children,
}: {
  prompt?: string;
  to: string;
  children: ReactNode;
}) {
  return (
    <>
      {prompt !== undefined && <>{prompt} </>}
      <Link component={RouterLink} to={to} sx={{ fontWeight: 600 }}>
        {children}
      </Link>
    </>
  );
}

/** The "or" rule between the Steam button and the e-mail form (login, sign-up). */
export function OrDivider() {
  const { t } = useTranslation();
  return <Divider sx={{ my: 3, color: 'text.secondary', fontSize: 14 }}>{t('accounts.login.or')}</Divider>;
}

/**
 * A refusal of the form in words, with the links that help (log in, reset the password), in place
 * of a modal: announced to screen readers as it appears.
 */
export function FormProblem({
  message,
  links = [],
}: {
  message: string;
  links?: Array<{ to: string; label: string }>;
}) {
  return (
    <Alert severity="error" variant="outlined" role="alert" data-testid="form-problem">
      {message}
      {links.map((link) => (
        <Box key={link.to} component="span" sx={{ display: 'inline-block', ml: 1 }}>
          <Link component={RouterLink} to={link.to} sx={{ fontWeight: 600 }}>
            {link.label}
          </Link>
        </Box>
      ))}
    </Alert>
  );
}
