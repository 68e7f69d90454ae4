import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { DROP_TOAST_MS, type PublicDrop } from '@openpug/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSocketEvent } from '../socket';

/** PUBLIC_DROP → a 6.5 s toast for every open client: "<username> received <dropName>". */
export function DropToast() {
  const { t } = useTranslation();
  const [drop, setDrop] = useState<(PublicDrop & { key: number }) | null>(null);
  useSocketEvent('PUBLIC_DROP', (payload) => setDrop({ ...payload, key: Date.now() }));
  return (
    <Snackbar
      key={drop?.key}
      open={drop !== null}
      autoHideDuration={DROP_TOAST_MS}
      onClose={(_e, reason) => reason !== 'clickaway' && setDrop(null)}
      anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
    >
      <Alert
        severity="success"
        icon={<span aria-hidden="true">🎁</span>}
        variant="filled"
        data-testid="drop-toast"
        sx={{ bgcolor: '#6a3093', color: '#fff', fontWeight: 600 }}
        onClose={() => setDrop(null)}
      >
        {drop ? t('competition.toast', { username: drop.username, dropName: drop.dropName }) : ''}
      </Alert>
    </Snackbar>
  );
}
