/**
 * Settings → "Your data" (GDPR self-service, docs/contract.md): download everything stored about
 * the player as JSON, and delete the account after a confirmation dialog that says what is erased
 * and what is kept, confirmed with the current password — or, for a Steam-only account, a fresh
 * Steam sign-in (the popup's ticket).
 */

import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { PrivacyDeleteBody, PrivacyExport, PrivacyStatus } from '@openpug/shared';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { reportSteamPopupError, waitForSteamTicket } from '../../features/accounts/steamPopup';
import { ApiError, api } from '../../features/api/client';
import { queryClient } from '../../features/api/queryClient';
import { setLoading, setSuccessMessage } from '../../features/app-state/store';
import { openGameLoginPopup } from '../../features/session/gameLogin';
import { logout } from '../../features/session/store';
import { Section } from '../profile/ProfileScreen';

/** Saves the export as `openpug-data-<day>.json` through a temporary link. */
export function saveJson(data: PrivacyExport): void {
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `openpug-data-${data.exportedAt.slice(0, 10)}.json`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

async function downloadData(): Promise<void> {
  setLoading(true);
  try {
    saveJson(await api.get<PrivacyExport>('/privacy/export'));
  } finally {
    setLoading(false);
  }
}

export function DeleteAccountDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const status = useQuery({
    queryKey: ['privacy', 'status'],
    queryFn: ({ signal }) => api.get<PrivacyStatus>('/privacy', { silent: true, signal }),
    enabled: open,
  });
  const steam = status.data?.confirmWith === 'steam';
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const close = () => {
    setPassword('');
    setError(null);
    onClose();
  };

  const remove = async (body: PrivacyDeleteBody) => {
    setBusy(true);
    setError(null);
    try {
      await api.post('/privacy/delete', body, { silent: true });
      logout();
      queryClient.clear();
      setSuccessMessage({ key: 'privacy.deleted' });
    } catch (err) {
      setError(err instanceof ApiError ? err.key : 'ERROR');
    } finally {
      setBusy(false);
    }
  };

  const confirmWithSteam = async () => {
    try {
      const ticket = await waitForSteamTicket(openGameLoginPopup());
      await remove({ steamTicket: ticket });
    } catch (err) {
      reportSteamPopupError(err);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : close}
      fullWidth
      maxWidth="sm"
      aria-labelledby="delete-account-title"
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!steam && password) void remove({ password });
        }}
      >
        <DialogTitle id="delete-account-title">{t('privacy.deleteTitle')}</DialogTitle>
        <DialogContent>
          <Stack spacing={1.5}>
            <Typography>{t('privacy.deleteErased')}</Typography>
            <Typography>{t('privacy.deleteKept')}</Typography>
            <Typography color="text.secondary">{t('privacy.deleteFinal')}</Typography>
            {error ? (
              <Alert severity="error" data-testid="delete-account-error">
                {t(error)}
              </Alert>
            ) : null}
            {steam ? (
              <Typography>{t('privacy.confirmSteamHint')}</Typography>
            ) : (
              <TextField
                autoFocus
                fullWidth
                type="password"
                autoComplete="current-password"
                label={t('privacy.password')}
                value={password}
                error={error === 'WRONG_PASSWORD'}
                onChange={(e) => {
                  setPassword(e.target.value);
                  setError(null);
                }}
                slotProps={{ htmlInput: { maxLength: 256 } }}
              />
            )}
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2, flexWrap: 'wrap', gap: 1 }}>
          <Button onClick={close} disabled={busy} color="inherit">
            {t('privacy.cancel')}
          </Button>
          {steam ? (
            <Button variant="contained" color="error" disabled={busy} onClick={() => void confirmWithSteam()}>
              {t('privacy.confirmSteam')}
            </Button>
          ) : (
            <Button
              type="submit"
              variant="contained"
              color="error"
              disabled={busy || !password || !status.data}
            >
              {t('privacy.confirmDelete')}
            </Button>
          )}
        </DialogActions>
      </form>
    </Dialog>
  );
}

export function YourDataSection() {
  const { t } = useTranslation();
  const [deleting, setDeleting] = useState(false);
  return (
    <Section title={t('privacy.title')}>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('privacy.hint')}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5 }}>
        <Button variant="outlined" onClick={() => void downloadData().catch(() => undefined)}>
          {t('privacy.download')}
        </Button>
        <Button variant="outlined" color="error" onClick={() => setDeleting(true)}>
          {t('privacy.delete')}
        </Button>
      </Box>
      <DeleteAccountDialog open={deleting} onClose={() => setDeleting(false)} />
    </Section>
  );
}
