/**
 * An admin's editor for texts they write per language (the About page, a season's details): one
 * field per text, a hint, Save and Cancel. The caller sends the draft and closes the dialog; a
 * refusal leaves it open (the error dialog shows the key).
 */
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface TextFieldSpec<K extends string> {
  name: K;
  label: string;
  /** A date (YYYY-MM-DD) instead of a text. */
  date?: boolean;
  /** One line instead of a paragraph. */
  singleLine?: boolean;
  maxLength?: number;
}

export function EditTextsDialog<K extends string>({
  title,
  hint,
  fields,
  initial,
  onSave,
  onClose,
}: {
  title: string;
  hint: string;
  fields: readonly TextFieldSpec<K>[];
  initial: Record<K, string>;
  /** Sends the draft; throws when it was refused. */
  onSave: (draft: Record<K, string>) => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const [draft, setDraft] = useState(initial);
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setSaving(true);
    try {
      await onSave(draft);
      onClose();
    } catch {
      setSaving(false); // the error dialog shows the key
    }
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Typography variant="body2" color="text.secondary">
            {hint}
          </Typography>
          {fields.map((field) => (
            <TextField
              key={field.name}
              label={field.label}
              value={draft[field.name]}
              onChange={(e) => setDraft({ ...draft, [field.name]: e.target.value })}
              type={field.date ? 'date' : 'text'}
              multiline={!field.date && !field.singleLine}
              minRows={field.date || field.singleLine ? undefined : 3}
              slotProps={{
                htmlInput: { maxLength: field.maxLength },
                inputLabel: field.date ? { shrink: true } : undefined,
              }}
            />
          ))}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('about.cancel')}</Button>
        <Button variant="contained" onClick={save} disabled={saving}>
          {t('about.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
