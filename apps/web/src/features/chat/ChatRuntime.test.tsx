/**
 * What a player sees while the chat server cannot be reached (issue 25; docs/contract.md §4 Chat):
 * the chat window says the chat is unavailable instead of loading, with no credentials from login
 * the runtime asks for them again (GET /api/chat/session) with a backoff and starts the chat once
 * they come, and the sync states of matrix-js-sdk move the window between unavailable and back.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { SyncState } from 'matrix-js-sdk';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../i18n';
import { logout, useSession } from '../session/store';
import { ChatRuntime } from './ChatRuntime';
import { reachableBySync, startChat } from './engine';
import { resetChatState, setChatUnavailable, useChat } from './store';

// The real engine except the Matrix sign-in, which would need a homeserver.
vi.mock('./engine', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./engine')>()),
  startChat: vi.fn(() => new Promise(() => undefined)),
}));

const CREDS = {
  userId: '@me:localhost',
  accessToken: 'chat-token',
  deviceId: 'DEV',
  homeserverUrl: 'http://localhost',
};
const OFFLINE = 'The chat is unavailable right now. It reconnects by itself.';

function renderRuntime() {
  return render(
    <MemoryRouter>
      <ChatRuntime onChatRoute={false} />
    </MemoryRouter>,
  );
}

describe('the chat while its server cannot be reached', () => {
  beforeAll(() => initI18n('en'));
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    useSession.setState({ token: 'tok', isTokenSet: true, user: { _id: 'me', name: 'Me' }, matrix: null });
    useChat.setState({ chatOpen: true });
  });
  afterEach(() => {
    cleanup();
    logout();
    resetChatState();
    vi.unstubAllGlobals();
    vi.mocked(startChat).mockClear();
    vi.useRealTimers();
  });

  it('without credentials from login: says unavailable, asks again backing off, starts the chat once they come', async () => {
    const answers = [
      new Response(JSON.stringify({ errors: { msg: 'CHAT_UNAVAILABLE' } }), { status: 503 }),
      new Response(JSON.stringify({ errors: { msg: 'CHAT_UNAVAILABLE' } }), { status: 503 }),
      new Response(JSON.stringify({ matrix: CREDS }), { status: 200 }),
    ];
    const fetchMock = vi.fn(async (url: string) => {
      expect(url).toMatch(/\/chat\/session$/);
      return answers.shift() as Response;
    });
    vi.stubGlobal('fetch', fetchMock);
    renderRuntime();
    expect(screen.getByRole('status')).toHaveProperty('textContent', OFFLINE);
    expect(screen.queryByText('Loading chat...')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();

    // 2 s, then 4 s more, then 8 s more: the backoff.
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(3_900));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(startChat).not.toHaveBeenCalled();
    expect(screen.getByTestId('chat-offline')).toHaveProperty('textContent', OFFLINE);

    await act(() => vi.advanceTimersByTimeAsync(8_000));
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(useSession.getState().matrix).toEqual(CREDS);
    expect(startChat).toHaveBeenCalledWith(CREDS);
    // Signing in to the chat now: loading, no longer unavailable, and no more asking.
    expect(screen.queryByTestId('chat-offline')).toBeNull();
    expect(screen.getByText('Loading chat...')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(120_000));
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('follows the sync: unavailable on a failing sync, back when it syncs again', async () => {
    useSession.setState({ matrix: CREDS });
    renderRuntime();
    expect(screen.getByText('Loading chat...')).toBeTruthy();
    act(() => setChatUnavailable(true));
    expect(screen.getByTestId('chat-offline')).toHaveProperty('textContent', OFFLINE);
    expect(screen.queryByText('Loading chat...')).toBeNull();
    // Synced once, then the server went away: the room list stays, under the notice.
    act(() => useChat.setState({ matrixSynched: true }));
    expect(screen.getByTestId('chat-room-list')).toBeTruthy();
    expect(screen.getByTestId('chat-offline')).toHaveProperty('textContent', OFFLINE);
    const before = useChat.getState().chatRecoveries;
    act(() => setChatUnavailable(false));
    expect(screen.queryByTestId('chat-offline')).toBeNull();
    expect(useChat.getState().chatRecoveries).toBe(before + 1);
  });

  it('reads the sync states of matrix-js-sdk', () => {
    expect(reachableBySync(SyncState.Prepared)).toBe(true);
    expect(reachableBySync(SyncState.Syncing)).toBe(true);
    expect(reachableBySync(SyncState.Reconnecting)).toBe(false);
    expect(reachableBySync(SyncState.Error)).toBe(false);
    // Answering again but not yet synced, or stopped on purpose: no change.
    expect(reachableBySync(SyncState.Catchup)).toBeNull();
    expect(reachableBySync(SyncState.Stopped)).toBeNull();
    expect(reachableBySync(null)).toBeNull();
  });
});
