/**
 * Shown when joining the queue is refused with STEAM_NOT_LINKED (real CS2 servers admit players
 * by their Steam account): the refusal in words, why, and the Steam link popup right here; once
 * linked, the player is put in the queue, which is what Play was for.
 */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { reportSteamPopupError, SteamLogo, steamLink } from '../accounts';
import { setSuccessMessage } from '../app-state';
import { sendQueue } from './actions';
import { dispatchQueue, useQueue } from './state';

export function SteamRequiredDialog() {
  const { t } = useTranslation();
  const open = useQueue((s) => s.steamRequired);
  const [linking, setLinking] = useState(false);
  const close = () => dispatchQueue({ type: 'steamRequired', open: false });

  const linkAndPlay = async () => {
    setLinking(true);
    try {
      await steamLink();
      close();
      setSuccessMessage({ key: 'accounts.steam.linked' });
      await sendQueue('join');
    } catch (err) {
      reportSteamPopupError(err);
    } finally {
      setLinking(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      fullWidth
      maxWidth="xs"
      aria-labelledby="queue-steam-title"
      data-testid="queue-steam-required"
    >
      <DialogTitle id="queue-steam-title">{t('queue.steam.title')}</DialogTitle>
      <DialogContent>
        <Alert severity="warning" variant="outlined" sx={{ mb: 2 }}>
          {t('STEAM_NOT_LINKED')}
        </Alert>
        <Typography color="text.secondary">{t('queue.steam.why')}</Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{t('queue.close')}</Button>
        <Button
          variant="contained"
          startIcon={<SteamLogo size={18} />}
          disabled={linking}
          onClick={() => void linkAndPlay()}
        >
          {t('queue.steam.link')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
