/**
 * Chat feature. Light entry points (no matrix-js-sdk): ./social (useGlobalChatUnread,
 * useOpenDirectChat, openDirectChat, useOpenGlobalChat) and ./store. Heavy ones, import them
 * lazily: ./MatchChat (MatchChat({matchId}) for the match page), ./ChatRuntime, ./ChatRoom.
 */
export {
  GLOBAL_CHAT_PATH,
  openDirectChat,
  useGlobalChatUnread,
  useOpenDirectChat,
  useOpenGlobalChat,
} from './social';
export { closeChatWindow, openChatWindow, useChat } from './store';
