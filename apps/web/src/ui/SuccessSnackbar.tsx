import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { useTranslation } from 'react-i18next';
import { setSuccessMessage, useAppState } from '../features/app-state/store';

/** Shows the current success message; its timeout is owned by the app-state store. */
export function SuccessSnackbar() {
  const { t } = useTranslation();
  const message = useAppState((s) => s.successMessage);
  return (
    <Snackbar open={message !== null} anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}>
      <Alert
        severity="success"
        variant="filled"
        onClose={() => setSuccessMessage(null)}
        sx={{ width: '100%' }}
      >
        {message ? t(message.key, message.params) : null}
      </Alert>
    </Snackbar>
  );
}
