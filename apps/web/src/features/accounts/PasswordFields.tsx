import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextField, muiField } from './FormTextField';

/** A password field of `form`; `label` is a key under accounts.fields. */
interface PasswordInput<T extends FieldValues> {
  name: Path<T>;
  label: 'password' | 'currentPassword' | 'newPassword';
}

/**
 * The password inputs of the account forms (login, sign-up, reset, change password): the
 * password the user has now (`current`), and/or one they choose (`chosen`) followed by its
 * confirmation (`chosen.confirm`). autoComplete tells password managers which is which.
 */
export function PasswordFields<T extends FieldValues>({
  form,
  current,
  chosen,
}: {
  form: UseFormReturn<T>;
  current?: PasswordInput<T>;
  chosen?: PasswordInput<T> & { confirm: Path<T> };
}) {
  const { t } = useTranslation();
  const field = (name: Path<T>, label: string, autoComplete: 'current-password' | 'new-password') => (
    <FormTextField
      {...muiField(form.register(name))}
      type="password"
      label={t(`accounts.fields.${label}`)}
      autoComplete={autoComplete}
      fieldError={form.getFieldState(name, form.formState).error}
    />
  );
  return (
    <>
      {current && field(current.name, current.label, 'current-password')}
      {chosen && field(chosen.name, chosen.label, 'new-password')}
      {chosen && field(chosen.confirm, 'confirmPassword', 'new-password')}
    </>
  );
}
