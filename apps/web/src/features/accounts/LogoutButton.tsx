import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { queryClient } from '../api';
import { logout } from '../session';

/** Logs out: storage cleared, the socket sends `logout`, and the app goes to the login route (sessionRules). */
export function LogoutButton() {
  const { t } = useTranslation();
  return (
    <Button
      variant="outlined"
      color="inherit"
      onClick={() => {
        logout();
        queryClient.clear();
      }}
    >
      {t('accounts.logout')}
    </Button>
  );
}
