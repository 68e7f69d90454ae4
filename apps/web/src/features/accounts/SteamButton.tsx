import Button from '@mui/material/Button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { reportSteamPopupError, steamLogin } from './steamPopup';

/** Steam's logo mark, simplified. */
export function SteamLogo({ size = 22 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
      <path d="M12 2a10 10 0 0 0-9.96 9.2l5.35 2.21a2.82 2.82 0 0 1 1.6-.5h.16l2.38-3.45v-.05a3.77 3.77 0 1 1 3.77 3.77h-.09l-3.4 2.42v.13a2.83 2.83 0 0 1-5.6.57L2.4 14.74A10 10 0 1 0 12 2Zm-4.4 15.2-1.22-.5a2.12 2.12 0 1 0 1.16-2.9l1.26.52a1.56 1.56 0 1 1-1.2 2.88Zm9.52-7.8a2.51 2.51 0 1 0-2.51 2.51 2.51 2.51 0 0 0 2.51-2.51Zm-4.39 0a1.89 1.89 0 1 1 1.88 1.89 1.88 1.88 0 0 1-1.88-1.89Z" />
    </svg>
  );
}

/** "Sign in with Steam": the popup flow, then the session is stored. */
export function SteamButton({ onLoggedIn }: { onLoggedIn: () => void }) {
  const { t } = useTranslation();
  const [waiting, setWaiting] = useState(false);
  const start = async () => {
    setWaiting(true);
    try {
      await steamLogin();
      onLoggedIn();
    } catch (err) {
      reportSteamPopupError(err);
    } finally {
      setWaiting(false);
    }
  };
  return (
    <Button
      fullWidth
      size="large"
      variant="contained"
      onClick={() => void start()}
      disabled={waiting}
      startIcon={<SteamLogo />}
      sx={{
        bgcolor: '#171a21',
        color: '#fff',
        border: '1px solid #2a475e',
        '&:hover': { bgcolor: '#2a475e' },
        py: 1.4,
      }}
    >
      {waiting ? t('accounts.steam.waiting') : t('accounts.steam.login')}
    </Button>
  );
}
