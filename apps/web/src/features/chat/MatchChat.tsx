/**
 * The match page's chat panel: the match's room (#match_<matchId>, players are its members), with
 * no day headers, no close button and no auto-scroll (docs/contract.md §2). Non-members see "not available".
 */
import CircularProgress from '@mui/material/CircularProgress';
import { matchRoomAliasLocalpart } from '@openpug/shared';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { loadChunk } from '../../app/chunkRecovery';
import { useSession } from '../session';
import styles from './Chat.module.css';

/**
 * The room (and the Matrix SDK under it, ~165 KB brotli) loads only for a signed-in viewer: a
 * visitor's match page shows the login note and stays light (performance issue target 2).
 */
const ChatRoom = lazy(() => loadChunk(() => import('./ChatRoom')).then((m) => ({ default: m.ChatRoom })));

/**
 * `title` names the chat (the teams) in the interface language; the room's stored name, which the
 * room list shows, names the teams too ("Team A vs Team B", matchRoomName).
 * `captain`: the signed-in player captains this match and moderates its chat.
 */
export function MatchChat({
  matchId,
  title,
  captain,
}: {
  matchId: string;
  title?: string;
  captain?: boolean;
}) {
  const { t } = useTranslation();
  const loggedIn = useSession((s) => s.isTokenSet);
  return (
    <div className={styles.matchPanel} data-testid="match-chat">
      {loggedIn ? (
        <Suspense fallback={<CircularProgress size={20} aria-label={t('chat.loading')} />}>
          <ChatRoom
            chatId={matchRoomAliasLocalpart(matchId)}
            variant="match"
            captain={captain}
            title={title ?? t('match.chat')}
          />
        </Suspense>
      ) : (
        <div className={styles.centerNote}>{t('chat.loginToChat')}</div>
      )}
    </div>
  );
}

export default MatchChat;
