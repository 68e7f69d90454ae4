/**
 * What the friends feature needs from chat, until the chat feature provides the real thing:
 * the global room's unread count (0 until chat reports one; nothing made up) and opening a
 * direct chat, which goes to the chat route of the direct-chat alias of SPEC §3 (the two user
 * ids sorted and joined). The chat feature replaces these bodies, keeping the signatures.
 */
import { directRoomAliasLocalpart, GLOBAL_ROOM_ALIAS_LOCALPART } from '@openpug/shared';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '../session/store';

/** Unread messages in the global room. */
export function useGlobalChatUnread(): number {
  return 0;
}

/** Route of the global chat room. */
export const GLOBAL_CHAT_PATH = `/chat/${GLOBAL_ROOM_ALIAS_LOCALPART}`;

/** Returns `openDirectChat(userId)`, which opens the direct chat with that user. */
export function useOpenDirectChat(): (userId: string) => void {
  const navigate = useNavigate();
  const me = useSession((s) => s.user?._id);
  return useCallback(
    (userId: string) => {
      if (me) navigate(`/chat/${directRoomAliasLocalpart(me, userId)}`);
    },
    [me, navigate],
  );
}
