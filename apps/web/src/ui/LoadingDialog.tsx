import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useAppState } from '../features/app-state/store';

/** Blocks the screen while a call that set `showLoading` is running. */
export function LoadingDialog() {
  const { t } = useTranslation();
  const open = useAppState((s) => s.showLoading);
  return (
    <Dialog open={open} aria-labelledby="loading-dialog-text">
      <DialogContent sx={{ display: 'flex', alignItems: 'center', gap: 2, px: 4, py: 3 }}>
        <CircularProgress size={28} aria-labelledby="loading-dialog-text" />
        <Typography id="loading-dialog-text">{t('dialogs.loading')}</Typography>
      </DialogContent>
    </Dialog>
  );
}
