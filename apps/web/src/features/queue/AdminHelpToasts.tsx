/** Admin help (docs/contract.md §4): a persistent toast per request with name, message, room link and a sound. */
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { type AdminHelpPayload, DEFAULT_SOUND } from '@openpug/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { playSound } from '../accounts';
import { useSession } from '../session';
import { useSocketEvent } from '../socket';

export function AdminHelpToasts() {
  const { t } = useTranslation();
  const [items, setItems] = useState<(AdminHelpPayload & { id: number })[]>([]);
  const sound = useSession((s) => (typeof s.user?.sound === 'string' && s.user.sound) || DEFAULT_SOUND);
  useSocketEvent('ADMIN_HELP', (help) => {
    playSound(sound);
    setItems((list) => [...list, { ...help, id: Date.now() + Math.random() }]);
  });
  if (items.length === 0) return null;
  const dismiss = (id: number) => setItems((list) => list.filter((i) => i.id !== id));
  return (
    <Box
      sx={{
        position: 'fixed',
        zIndex: 1400,
        top: { xs: 64, md: 16 },
        right: 16,
        left: { xs: 16, sm: 'auto' },
        width: { sm: 380 },
        display: 'flex',
        flexDirection: 'column',
        gap: 1,
      }}
    >
      {items.map((h) => (
        <Alert
          key={h.id}
          severity="warning"
          variant="filled"
          role="alert"
          data-testid="admin-help"
          onClose={() => dismiss(h.id)}
          action={undefined}
        >
          <AlertTitle>{t('match.help.adminTitle', { name: h.username })}</AlertTitle>
          <Box sx={{ mb: 1, wordBreak: 'break-word' }}>{h.msg}</Box>
          <Button
            component={Link}
            to={`/match/${h.matchId}`}
            size="small"
            variant="contained"
            color="inherit"
            sx={{ color: '#1b1200' }}
            onClick={() => dismiss(h.id)}
          >
            {t('match.help.openRoom')}
          </Button>
        </Alert>
      ))}
    </Box>
  );
}
