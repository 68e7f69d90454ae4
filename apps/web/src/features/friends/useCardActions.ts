import { useMemo } from 'react';
import type { CardActions, CardRelation } from '../../ui/UserCard';
import { useOpenDirectChat } from '../chat';
import { useSession } from '../session';
import {
  answerFriendRequest,
  cancelFriendRequest,
  removeFriend,
  sendFriendRequest,
  useRelation,
} from './actions';

const ignore = () => undefined; // failures already went to the error dialog

/** The relation to `userId` and the card actions that fit it; `guest` when logged out. */
export function useCardActions(userId: string | undefined): { relation: CardRelation; actions: CardActions } {
  const loggedIn = useSession((s) => s.isTokenSet);
  const relation = useRelation(userId);
  const openDirectChat = useOpenDirectChat();
  return useMemo(() => {
    if (!loggedIn || !userId) return { relation: 'guest' as const, actions: {} };
    const actions: CardActions = {
      onAddFriend: () => void sendFriendRequest(userId).catch(ignore),
      onMessage: () => openDirectChat(userId),
      onAccept:
        relation.kind === 'received'
          ? () => void answerFriendRequest(relation.requestId, true).catch(ignore)
          : undefined,
      onCancel:
        relation.kind === 'sent'
          ? () => void cancelFriendRequest(relation.requestId).catch(ignore)
          : undefined,
      onRemove: () => void removeFriend(userId).catch(ignore),
    };
    return { relation: relation.kind, actions };
  }, [loggedIn, userId, relation, openDirectChat]);
}
