/**
 * The logged-in chat runtime, mounted by the layout (lazily, so matrix-js-sdk stays out of the
 * first load): signs in to the messaging server with the session's credentials, keeps syncing,
 * and shows the floating window (or its launcher) outside the chat routes. The launcher opens the
 * room with unread messages, if any (docs/contract.md §2 Global layout).
 */
import { type MatrixSession, matrixSessionSchema } from '@openpug/shared';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '../session';
import { ChatLauncher, ChatWindow } from './ChatWindow';
import { rejectsCredentials, renewChatCredentials, startChat, stopChat } from './engine';
import { launcherRoom } from './rules';
import { prefersChatRoute } from './social';
import { openChatWindow, setChatUnavailable, useChat } from './store';

const CHAT_RETRY_FIRST_MS = 2_000;
const CHAT_RETRY_MAX_MS = 60_000;

function credentials(raw: unknown): MatrixSession | null {
  const parsed = matrixSessionSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/**
 * No chat credentials: the chat server was down at login (the product signs in without them).
 * Asks for them again (GET /api/chat/session), backing off; once they come, the session's new
 * credentials restart the runtime. Returns the stop function.
 */
function askForCredentials(): () => void {
  let stopped = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const ask = (delay: number) => {
    retry = setTimeout(
      () =>
        void renewChatCredentials().then(() => {
          if (!stopped && !credentials(useSession.getState().matrix))
            ask(Math.min(delay * 2, CHAT_RETRY_MAX_MS));
        }),
      delay,
    );
  };
  ask(CHAT_RETRY_FIRST_MS);
  return () => {
    stopped = true;
    clearTimeout(retry);
  };
}

export function ChatRuntime({ onChatRoute }: { onChatRoute: boolean }) {
  const matrix = useSession((s) => s.matrix);
  const token = credentials(matrix)?.accessToken;
  const chatOpen = useChat((s) => s.chatOpen);
  const navigate = useNavigate();
  // biome-ignore lint/correctness/useExhaustiveDependencies: restart only when the access token changes
  useEffect(() => {
    const creds = credentials(matrix);
    if (!creds) {
      setChatUnavailable(true);
      const stop = askForCredentials();
      return () => {
        stop();
        setChatUnavailable(false);
      };
    }
    // A refused token has asked for fresh credentials already; a network failure is retried, backing
    // off, and meanwhile the chat says it is unavailable (a successful sync says otherwise).
    let stopped = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const attempt = (delay: number) =>
      void startChat(creds).catch((err) => {
        if (stopped || rejectsCredentials(err)) return;
        setChatUnavailable(true);
        retry = setTimeout(() => attempt(Math.min(delay * 2, CHAT_RETRY_MAX_MS)), delay);
      });
    attempt(CHAT_RETRY_FIRST_MS);
    return () => {
      stopped = true;
      clearTimeout(retry);
      stopChat();
    };
  }, [token]);
  // Without credentials the launcher and window still show, saying the chat is unavailable.
  if (onChatRoute) return null;
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
