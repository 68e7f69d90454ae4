import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { forwardRef } from 'react';
import type { FieldError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { decodeMessage } from './formRules';

/** An MUI text field that shows a form-rule message (see formRules.ts) in the current language. */
export const FormTextField = forwardRef<HTMLDivElement, TextFieldProps & { fieldError?: FieldError }>(
  function FormTextField({ fieldError, helperText, ...props }, ref) {
    const { t } = useTranslation();
    const message = decodeMessage(fieldError?.message);
    return (
      <TextField
        ref={ref}
        fullWidth
        error={Boolean(message)}
        helperText={message ? t(message.key, message.params) : helperText}
        {...props}
      />
    );
  },
);

/** Spreads react-hook-form's `register` onto an MUI text field (MUI wants `inputRef`). */
export function muiField(registered: {
  ref: (el: HTMLInputElement | null) => void;
  name: string;
  onChange: (e: { target: unknown }) => unknown;
  onBlur: (e: { target: unknown }) => unknown;
}) {
  const { ref, ...rest } = registered;
  return { ...rest, inputRef: ref };
}
