/**
 * The friend calls of docs/contract.md §7 as the sidebar, the user card and the search screen use them. Each
 * answer updates the store right away (the live event that follows is idempotent) and shows the
 * server's success text.
 */
import {
  type AnswerFriendRequestResponse,
  type FriendRequest,
  SUCCESS_TEXTS,
  type SuccessKey,
} from '@openpug/shared';
import { useMemo } from 'react';
import { i18n } from '../../i18n';
import { api } from '../api';
import { setSuccessMessage } from '../app-state';
import { useSession } from '../session';
import { type Relation, relationTo } from './state';
import { dispatchFriends, useFriendsStore } from './store';

/** The server's success keys (docs/contract.md §8) come with their texts from @openpug/shared. */
function showSuccess(key: SuccessKey): void {
  const locale = i18n.language === 'de' ? 'de' : 'en';
  if (!i18n.exists(key)) i18n.addResource(locale, 'translation', key, SUCCESS_TEXTS[locale][key]);
  setSuccessMessage({ key });
}

export async function sendFriendRequest(recipient: string): Promise<void> {
  const created = await api.post<FriendRequest & { msg: SuccessKey }>('/friends', { recipient });
  const { msg, ...request } = created;
  dispatchFriends({ type: 'sentRequest', request });
  showSuccess(msg);
}

export async function answerFriendRequest(requestId: string, accepted: boolean): Promise<void> {
  const answer = await api.patch<AnswerFriendRequestResponse>(`/friends/${requestId}`, { accepted });
  dispatchFriends({ type: 'receivedRequestGone', requestId });
  if (answer.friend) dispatchFriends({ type: 'newFriend', friend: answer.friend });
  showSuccess(answer.msg);
}

/** Cancels a sent request (or declines a received one). */
export async function cancelFriendRequest(requestId: string): Promise<void> {
  const answer = await api.delete<{ _id: string; msg: SuccessKey }>(`/friends/${requestId}`);
  dispatchFriends({ type: 'sentRequestGone', requestId });
  dispatchFriends({ type: 'receivedRequestGone', requestId });
  showSuccess(answer.msg);
}

export async function removeFriend(userId: string): Promise<void> {
  const answer = await api.delete<{ _id: string; msg: SuccessKey }>(`/friends/existing/${userId}`);
  dispatchFriends({ type: 'friendGone', userId });
  showSuccess(answer.msg);
}

/** How the viewer relates to `userId` (friend, pending request either way, self, none). */
export function useRelation(userId: string | undefined): Relation {
  const me = useSession((s) => s.user?._id);
  const friends = useFriendsStore((s) => s.friends);
  const sent = useFriendsStore((s) => s.sent);
  const received = useFriendsStore((s) => s.received);
  return useMemo(
    () =>
      userId ? relationTo({ friends, sent, received, loaded: true }, me, userId) : { kind: 'none' as const },
    [friends, sent, received, me, userId],
  );
}
