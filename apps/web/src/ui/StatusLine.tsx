import type { UserStatus } from '@openpug/shared';
import { useTranslation } from 'react-i18next';
import { ArenaIcon, QueueIcon, VoiceIcon } from './icons';
import styles from './StatusLine.module.css';
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
  const lineClass = [styles.line, dense && styles.dense, line.tone === 'away' && styles.away]
    .filter(Boolean)
    .join(' ');
  return (
    <span data-status={line.kind} className={lineClass}>
      <span aria-hidden className={styles.dot} style={{ background: TONE_COLOUR[line.tone] }} />
      <span title={text} className={styles.text}>
        {text}
      </span>
      {status.inQueue && (
        <span title={t('friends.status.icons.queue')} className={styles.icon}>
          <QueueIcon
            size={iconSize}
            aria-label={t('friends.status.icons.queue')}
            aria-hidden={false}
            role="img"
          />
        </span>
      )}
      {status.inArena && (
        <span title={t('friends.status.icons.arena')} className={styles.icon}>
          <ArenaIcon
            size={iconSize}
            aria-label={t('friends.status.icons.arena')}
            aria-hidden={false}
            role="img"
          />
        </span>
      )}
      {status.teamSpeak && (
        <span title={t('friends.status.icons.voice')} className={styles.voice}>
          <VoiceIcon
            size={iconSize}
            aria-label={t('friends.status.icons.voice')}
            aria-hidden={false}
            role="img"
          />
        </span>
      )}
    </span>
  );
}
