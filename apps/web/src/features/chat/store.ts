/**
 * Chat state (docs/contract.md §3 Chat): chats (room summaries), chatOpen, the open chat, notifications
 * (room name → total unread, only > 0), matrixLoggedIn and matrixSynched. Plain zustand with no
 * matrix-js-sdk import, so the friends sidebar can read unread counts without loading the SDK.
 */
import { create } from 'zustand';
import type { RoomSummary } from './rules';

export interface ChatState {
  chats: RoomSummary[];
  /** The floating window is open. */
  chatOpen: boolean;
  /** What the floating window shows: a room id, an alias local part or a direct-chat id. */
  chatId: string | null;
  roomId: string | null;
  roomName: string | null;
  roomAvatar: string | null;
  notifications: Record<string, number>;
  /** Unread count per room id (all rooms). */
  unreadByRoom: Record<string, number>;
  globalRoomId: string | null;
  matrixLoggedIn: boolean;
  matrixSynched: boolean;
  /**
   * The chat server cannot be reached (its sync failing, the sign-in failing on the network, or no
   * chat credentials because it was down at login): the chat says so instead of loading.
   */
  chatUnavailable: boolean;
  /** Counts the returns from an outage, so a room that failed to load during one is loaded again. */
  chatRecoveries: number;
  /** Room ids currently shown somewhere (window, route, match page): no desktop notification for them. */
  visibleRooms: string[];
}

const initial: ChatState = {
  chats: [],
  chatOpen: false,
  chatId: null,
  roomId: null,
  roomName: null,
  roomAvatar: null,
  notifications: {},
  unreadByRoom: {},
  globalRoomId: null,
  matrixLoggedIn: false,
  matrixSynched: false,
  chatUnavailable: false,
  chatRecoveries: 0,
  visibleRooms: [],
};

export const useChat = create<ChatState>(() => ({ ...initial }));

export const resetChatState = () => useChat.setState({ ...initial });

/** Opens the floating chat window on a chat id (room id, alias local part or direct-chat id). */
export function openChatWindow(chatId: string | null = null): void {
  useChat.setState((s) => ({ chatOpen: true, chatId: chatId ?? s.chatId }));
}

/** The chat server became reachable again, or stopped being so (docs/contract.md §4 Chat). */
export function setChatUnavailable(unavailable: boolean): void {
  useChat.setState((s) =>
    s.chatUnavailable === unavailable
      ? s
      : { chatUnavailable: unavailable, chatRecoveries: s.chatRecoveries + (unavailable ? 0 : 1) },
  );
}

export function closeChatWindow(): void {
  useChat.setState({ chatOpen: false });
}

export function markRoomVisible(roomId: string, visible: boolean): void {
  useChat.setState((s) => {
    const visibleRooms = [...s.visibleRooms];
    if (visible) visibleRooms.push(roomId);
    else if (visibleRooms.includes(roomId)) visibleRooms.splice(visibleRooms.indexOf(roomId), 1);
    return { visibleRooms };
  });
}
