/**
 * The arena (warm-up) servers for players (docs/contract.md §3 "In Arena"): name, whether the
 * server answers, how many play on it and a connect link (`steam://connect/host:port`, which
 * starts CS2 through Steam). Shown on the home screen and, from the queue widget, to queued
 * players; nothing is shown while no server is listed.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Popover from '@mui/material/Popover';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type ArenaServer, arenaConnectUrl } from '@openpug/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ArenaIcon } from '../../ui/icons';
import { tokens } from '../../ui/tokens';
import { useArenaServers } from './api';

function ArenaRow({ server }: { server: ArenaServer }) {
  const { t } = useTranslation();
  return (
    <Box
      component="li"
      data-testid="arena-server"
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1.5,
        py: 1,
        '& + &': { borderTop: 1, borderColor: 'divider' },
      }}
    >
      <Box
        aria-hidden
        sx={{
          width: 8,
          height: 8,
          borderRadius: '50%',
          flexShrink: 0,
          bgcolor: server.online ? 'success.main' : 'text.disabled',
        }}
      />
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Typography sx={{ fontWeight: 700 }} noWrap title={server.name}>
          {server.name}
        </Typography>
        <Typography variant="body2" color="text.secondary" data-testid="arena-players">
          {server.online ? t('arena.players', { count: server.players }) : t('arena.offline')}
        </Typography>
      </Box>
      <Button
        component="a"
        href={arenaConnectUrl(server.address)}
        variant="outlined"
        size="small"
        disabled={!server.online}
        title={server.address}
      >
        {t('arena.connect')}
      </Button>
    </Box>
  );
}

function Rows({ servers }: { servers: ArenaServer[] }) {
  return (
    <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {servers.map((s) => (
        <ArenaRow key={s._id} server={s} />
      ))}
    </Box>
  );
}

function Heading() {
  const { t } = useTranslation();
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 0.5 }}>
      <ArenaIcon size={20} style={{ color: tokens.accent }} />
      <Typography sx={{ fontWeight: 700 }}>{t('arena.title')}</Typography>
    </Stack>
  );
}

/** The list as a card (home screen). */
export function ArenaList() {
  const { t } = useTranslation();
  const servers = useArenaServers().data?.servers ?? [];
  if (servers.length === 0) return null;
  return (
    <Paper variant="outlined" sx={{ p: 2.5, borderRadius: 2 }} data-testid="arena-list">
      <Heading />
      <Typography variant="body2" color="text.secondary">
        {t('arena.hint')}
      </Typography>
      <Rows servers={servers} />
    </Paper>
  );
}

/**
 * The queue widget's "Arena" button: the list in a popover while the player waits. `compact`: an
 * icon button with the same name (the queue widget's one line on a phone).
 */
export function ArenaQueueButton({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const servers = useArenaServers().data?.servers ?? [];
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  if (servers.length === 0) return null;
  const players = servers.reduce((n, s) => n + s.players, 0);
  const label = t('arena.warmUp', { count: players });
  return (
    <>
      {compact ? (
        <IconButton
          size="small"
          data-testid="arena-queue-button"
          aria-label={label}
          title={label}
          onClick={(e) => setAnchor(e.currentTarget)}
          sx={{ flexShrink: 0, color: 'text.secondary' }}
        >
          <ArenaIcon size={20} />
        </IconButton>
      ) : (
        <Button
          size="small"
          color="inherit"
          data-testid="arena-queue-button"
          startIcon={<ArenaIcon size={18} />}
          onClick={(e) => setAnchor(e.currentTarget)}
          sx={{ color: 'text.secondary' }}
        >
          {label}
        </Button>
      )}
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'top', horizontal: 'left' }}
        transformOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        slotProps={{ paper: { sx: { p: 2, width: 340, maxWidth: 'calc(100vw - 24px)' } } }}
      >
        <Box data-testid="arena-list">
          <Heading />
          <Rows servers={servers} />
        </Box>
      </Popover>
    </>
  );
}
