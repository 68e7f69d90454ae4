/**
 * "Cancel match" for admins on the match page while the match is not over: a confirm dialog, then
 * POST /api/admin/matches/:id/cancel. The page itself turns to "cancelled" through the room's
 * MATCH_STATE, as for every other viewer; a refusal shows in the error dialog (api client).
 */
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { MatchState } from '@openpug/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../features/api/client';
import { setSuccessMessage } from '../../features/app-state/store';
import { canCancelMatch } from '../../features/matches/permissions';
import { useSession } from '../../features/session/store';

export function AdminCancelButton({ state }: { state: Pick<MatchState, '_id' | 'status'> }) {
  const { t } = useTranslation();
  const role = useSession((s) => s.user?.role);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!canCancelMatch(state, role)) return null;

  const confirm = async () => {
    setBusy(true);
    try {
      await api.post(`/admin/matches/${state._id}/cancel`);
      setOpen(false);
      setSuccessMessage({ key: 'match.adminCancel.done', timeout: 4000 });
    } catch {
      // the error dialog shows the key
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button variant="outlined" color="error" onClick={() => setOpen(true)} data-testid="admin-cancel-match">
        {t('match.adminCancel.button')}
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        fullWidth
        maxWidth="xs"
        aria-labelledby="admin-cancel-title"
      >
        <DialogTitle id="admin-cancel-title">{t('match.adminCancel.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{t('match.adminCancel.text')}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{t('match.adminCancel.back')}</Button>
          <Button variant="contained" color="error" disabled={busy} onClick={() => void confirm()}>
            {t('match.adminCancel.button')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
