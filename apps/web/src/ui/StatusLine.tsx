import Box from '@mui/material/Box';
import type { UserStatus } from '@openpug/shared';
import { useTranslation } from 'react-i18next';
import { ArenaIcon, QueueIcon, VoiceIcon } from './icons';
import { statusLineOf } from './statusLine';
import { tokens } from './tokens';
import { useNow } from './useNow';

const TONE_COLOUR = { busy: tokens.accent, online: tokens.success, away: tokens.textMuted } as const;

/**
 * The reusable status line of docs/contract.md §2: one line in priority order (arena, queue, lobby, game,
 * online, last seen) with icons for a voice-server link, the arena and the queue.
 */
export function StatusLine({ status, dense = false }: { status: UserStatus; dense?: boolean }) {
  const { t, i18n } = useTranslation();
  const now = useNow(30_000, !status.online && status.lastSeen !== null);
  const line = statusLineOf(status, now, i18n.language);
  const iconSize = dense ? 13 : 15;
  const text = t(`friends.status.${line.key}`, line.params);
  return (
    <Box
      component="span"
      data-status={line.kind}
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 0.6,
        minWidth: 0,
        fontSize: dense ? '0.75rem' : '0.8125rem',
        color: line.tone === 'away' ? 'text.secondary' : 'text.primary',
      }}
    >
      <Box
        component="span"
        aria-hidden
        sx={{ width: 7, height: 7, borderRadius: '50%', flexShrink: 0, bgcolor: TONE_COLOUR[line.tone] }}
      />
      <Box
        component="span"
        title={text}
        sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
      >
        {text}
      </Box>
      {status.inQueue && (
        <Box
          component="span"
          title={t('friends.status.icons.queue')}
          sx={{ display: 'flex', color: tokens.accent }}
        >
          <QueueIcon
            size={iconSize}
            aria-label={t('friends.status.icons.queue')}
            aria-hidden={false}
            role="img"
          />
        </Box>
      )}
      {status.inArena && (
        <Box
          component="span"
          title={t('friends.status.icons.arena')}
          sx={{ display: 'flex', color: tokens.accent }}
        >
          <ArenaIcon
            size={iconSize}
            aria-label={t('friends.status.icons.arena')}
            aria-hidden={false}
            role="img"
          />
        </Box>
      )}
      {status.teamSpeak && (
        <Box
          component="span"
          title={t('friends.status.icons.voice')}
          sx={{ display: 'flex', color: 'text.secondary' }}
        >
          <VoiceIcon
            size={iconSize}
            aria-label={t('friends.status.icons.voice')}
            aria-hidden={false}
            role="img"
          />
        </Box>
      )}
    </Box>
  );
}
