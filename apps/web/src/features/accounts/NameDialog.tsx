/**
 * The name dialog (docs/contract.md §4): shown while the logged-in user has no name (a fresh Steam account).
 * Save is disabled while the field is empty; a failed save marks the field, with no message.
 */

import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type Profile, userNameSchema } from '@openpug/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api';
import { updateSessionUser } from '../session';

export function NameDialog() {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [error, setError] = useState(false);
  const [saving, setSaving] = useState(false);
  const empty = name.trim() === '';

  const save = async () => {
    const parsed = userNameSchema.safeParse(name);
    if (!parsed.success) {
      setError(true);
      return;
    }
    setSaving(true);
    try {
      const profile = await api.patch<Profile>('/profile', { name: parsed.data }, { silent: true });
      updateSessionUser({ name: profile.name ?? undefined });
    } catch {
      setError(true);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open fullWidth maxWidth="xs" aria-labelledby="name-dialog-title">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!empty) void save();
        }}
      >
        <DialogTitle id="name-dialog-title">{t('accounts.nameDialog.title')}</DialogTitle>
        <DialogContent>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {t('accounts.nameDialog.hint')}
          </Typography>
          <TextField
            autoFocus
            fullWidth
            label={t('accounts.nameDialog.label')}
            value={name}
            error={error}
            onChange={(e) => {
              setName(e.target.value);
              setError(false);
            }}
            slotProps={{ htmlInput: { maxLength: 64 } }}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button type="submit" variant="contained" disabled={empty || saving}>
            {t('accounts.nameDialog.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
