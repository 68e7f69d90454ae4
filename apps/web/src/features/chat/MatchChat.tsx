/**
 * The match page's chat panel: the match's room (#match_<matchId>, players are its members), with
 * no day headers, no close button and no auto-scroll (docs/contract.md §2). Non-members see "not available".
 */
import { matchRoomAliasLocalpart } from '@openpug/shared';
import { useTranslation } from 'react-i18next';
import { useSession } from '../session/store';
import styles from './Chat.module.css';
import { ChatRoom } from './ChatRoom';

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
        <ChatRoom
          chatId={matchRoomAliasLocalpart(matchId)}
          variant="match"
          captain={captain}
          title={title ?? t('match.chat')}
        />
      ) : (
        <div className={styles.centerNote}>{t('chat.loginToChat')}</div>
      )}
    </div>
  );
}

export default MatchChat;
