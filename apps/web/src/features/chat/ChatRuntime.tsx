/**
 * The logged-in chat runtime, mounted by the layout (lazily, so matrix-js-sdk stays out of the
 * first load): signs in to the messaging server with the session's credentials, keeps syncing,
 * and shows the floating window (or its launcher) outside the chat routes. The launcher opens the
 * room with unread messages, if any (docs/contract.md §2 Global layout).
 */
import { type MatrixSession, matrixSessionSchema } from '@openpug/shared';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '../session/store';
import { ChatLauncher, ChatWindow } from './ChatWindow';
import { rejectsCredentials, startChat, stopChat } from './engine';
import { launcherRoom } from './rules';
import { prefersChatRoute } from './social';
import { openChatWindow, useChat } from './store';

const CHAT_RETRY_FIRST_MS = 2_000;
const CHAT_RETRY_MAX_MS = 60_000;

function credentials(raw: unknown): MatrixSession | null {
  const parsed = matrixSessionSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

export function ChatRuntime({ onChatRoute }: { onChatRoute: boolean }) {
  const matrix = useSession((s) => s.matrix);
  const token = credentials(matrix)?.accessToken;
  const chatOpen = useChat((s) => s.chatOpen);
  const navigate = useNavigate();
  // biome-ignore lint/correctness/useExhaustiveDependencies: restart only when the access token changes
  useEffect(() => {
    const creds = credentials(matrix);
    if (!creds) return;
    // A refused token has asked for fresh credentials already; a network failure is retried, backing off.
    let stopped = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const attempt = (delay: number) =>
      void startChat(creds).catch((err) => {
        if (stopped || rejectsCredentials(err)) return;
        retry = setTimeout(() => attempt(Math.min(delay * 2, CHAT_RETRY_MAX_MS)), delay);
      });
    attempt(CHAT_RETRY_FIRST_MS);
    return () => {
      stopped = true;
      clearTimeout(retry);
      stopChat();
    };
  }, [token]);
  if (onChatRoute || !token) return null;
  if (chatOpen) return <ChatWindow />;
  return (
    <ChatLauncher
      onOpen={() => {
        const { chatId, chats } = useChat.getState();
        const target = launcherRoom(chats, chatId);
        if (prefersChatRoute()) navigate(target ? `/chat/${encodeURIComponent(target)}` : '/chat/global');
        else openChatWindow(target);
      }}
    />
  );
}
