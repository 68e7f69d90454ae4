/**
 * The logged-in chat runtime, mounted by the layout (lazily, so matrix-js-sdk stays out of the
 * first load): signs in to the messaging server with the session's credentials, keeps syncing,
 * and shows the floating window (or its launcher) outside the chat routes.
 */
import { type MatrixSession, matrixSessionSchema } from '@openpug/shared';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '../session/store';
import { ChatLauncher, ChatWindow } from './ChatWindow';
import { startChat, stopChat } from './engine';
import { prefersChatRoute } from './social';
import { openChatWindow, useChat } from './store';

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
    void startChat(creds).catch(() => undefined);
    return () => stopChat();
  }, [token]);
  if (onChatRoute || !token) return null;
  if (chatOpen) return <ChatWindow />;
  return (
    <ChatLauncher
      onOpen={() => {
        const { chatId } = useChat.getState();
        if (prefersChatRoute()) navigate(chatId ? `/chat/${encodeURIComponent(chatId)}` : '/chat/global');
        else openChatWindow();
      }}
    />
  );
}
