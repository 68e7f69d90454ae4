import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { setErrorMessage, useAppState } from '../features/app-state/store';

/**
 * The persistent red error list (docs/contract.md §8): stays until Close (or the next navigation) so a
 * failure is never missed. Each entry is an error key translated to the current language.
 */
export function ErrorListDialog() {
  const { t } = useTranslation();
  const open = useAppState((s) => s.showErrorMessage);
  const messages = useAppState((s) => s.errorMessage);
  const close = () => setErrorMessage(null);
  return (
    <Dialog open={open} onClose={close} aria-labelledby="error-dialog-title" fullWidth maxWidth="xs">
      <DialogTitle id="error-dialog-title" sx={{ color: 'error.main', fontWeight: 700 }}>
        {t('dialogs.errorTitle')}
      </DialogTitle>
      <DialogContent>
        <Stack component="ul" spacing={1} sx={{ m: 0, p: 0, listStyle: 'none' }}>
          {messages.map((key, index) => (
            // The same key may repeat; the position tells the entries apart.
            // biome-ignore lint/suspicious/noArrayIndexKey: entries are append-only
            <Alert component="li" key={`${index}-${key}`} severity="error" variant="filled">
              {t(key)}
            </Alert>
          ))}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close} color="error" variant="contained">
          {t('dialogs.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
