/**
 * What other features use from chat, without loading matrix-js-sdk: the global room's unread
 * count and opening a direct or the global chat. On wide screens chats open in the floating
 * window; on phones they open on the /chat/:chatId route. The direct-chat id is the alias local
 * part of docs/contract.md §3 (the two user ids sorted and joined), resolved by the chat feature.
 */
import { directRoomAliasLocalpart, GLOBAL_ROOM_ALIAS_LOCALPART } from '@openpug/shared';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '../session';
import { openChatWindow, useChat } from './store';

/** Unread messages in the global room (0 until the chat has synced). */
export function useGlobalChatUnread(): number {
  return useChat((s) => (s.globalRoomId ? (s.unreadByRoom[s.globalRoomId] ?? 0) : 0));
}

/** Route of the global chat room. */
export const GLOBAL_CHAT_PATH = `/chat/${GLOBAL_ROOM_ALIAS_LOCALPART}`;

/** Phones (and narrow windows) use the chat route instead of the floating window. */
export const prefersChatRoute = () => typeof window !== 'undefined' && window.innerWidth < 600;

/** Returns `openChat(chatId)`: the floating window on wide screens, the chat route on phones. */
export function useOpenChat(): (chatId: string) => void {
  const navigate = useNavigate();
  return useCallback(
    (chatId: string) => {
      if (prefersChatRoute()) navigate(`/chat/${encodeURIComponent(chatId)}`);
      else openChatWindow(chatId);
    },
    [navigate],
  );
}

/** Returns `openDirectChat(userId)`, which opens the direct chat with that user. */
export function useOpenDirectChat(): (userId: string) => void {
  const openChat = useOpenChat();
  const me = useSession((s) => s.user?._id);
  return useCallback(
    (userId: string) => {
      if (me) openChat(directRoomAliasLocalpart(me, userId));
    },
    [me, openChat],
  );
}

/** Returns `openGlobalChat()`. */
export function useOpenGlobalChat(): () => void {
  const openChat = useOpenChat();
  return useCallback(() => openChat(GLOBAL_ROOM_ALIAS_LOCALPART), [openChat]);
}

/** Opens the direct chat with a user (outside React; floating window, or the route on phones). */
export function openDirectChat(userId: string, navigate?: (path: string) => void): void {
  const me = useSession.getState().user?._id;
  if (!me) return;
  const chatId = directRoomAliasLocalpart(me, userId);
  if (prefersChatRoute() && navigate) navigate(`/chat/${chatId}`);
  else openChatWindow(chatId);
}

export { useChat };
