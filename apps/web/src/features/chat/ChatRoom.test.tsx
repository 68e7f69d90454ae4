/**
 * Read marking of the open room (docs/contract.md §4 Chat, §9 read marker): a message that arrives
 * while the player is in another tab or window is not marked read, and coming back (the window's
 * focus, the tab visible again) marks it read.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { createClient, type MatrixClient, MatrixEvent, Room } from 'matrix-js-sdk';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../i18n';
import { ChatRoom } from './ChatRoom';
import { resetChatState, useChat } from './store';

const me = '@ben:hs.test';
const ann = '@ann:hs.test';
const fake = vi.hoisted(() => ({ client: null as MatrixClient | null, room: null as Room | null }));

// The real engine except the client and the room, which would need a homeserver.
vi.mock('./engine', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./engine')>()),
  getClient: () => fake.client,
  loadRoom: async () => fake.room,
}));

let ts = 1_000;
const message = (id: string, body: string) =>
  new MatrixEvent({
    event_id: id,
    room_id: '!dm:hs.test',
    type: 'm.room.message',
    sender: ann,
    content: { msgtype: 'm.text', body },
    origin_server_ts: ts++,
  });

let focused = false;
let visibility: DocumentVisibilityState = 'visible';

describe('the open room is marked read when the player comes back', () => {
  beforeAll(() => initI18n('en'));
  beforeEach(async () => {
    focused = false;
    visibility = 'visible';
    vi.spyOn(document, 'hasFocus').mockImplementation(() => focused);
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
    fake.client = createClient({ baseUrl: 'http://hs.test', userId: me, accessToken: 't' });
    vi.spyOn(fake.client, 'setRoomReadMarkers').mockResolvedValue({});
    fake.room = new Room('!dm:hs.test', fake.client, me);
    await fake.room.addLiveEvents([message('$hello', 'Hello Ben!')], { addToState: true });
    useChat.setState({ matrixSynched: true });
  });
  afterEach(() => {
    cleanup();
    fake.client?.stopClient();
    resetChatState();
    vi.restoreAllMocks();
  });

  async function openRoomInBackground() {
    render(<ChatRoom chatId="!dm:hs.test" variant="page" />);
    await screen.findByText('Hello Ben!');
    // Arrived while the window had no focus: not read yet.
    expect(fake.client?.setRoomReadMarkers).not.toHaveBeenCalled();
  }

  it('on the window getting focus back', async () => {
    await openRoomInBackground();
    focused = true;
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    expect(fake.client?.setRoomReadMarkers).toHaveBeenCalledOnce();
    expect(vi.mocked(fake.client?.setRoomReadMarkers)?.mock.calls[0][1]).toBe('$hello');
  });

  it('on the tab becoming visible again, not while it is hidden', async () => {
    visibility = 'hidden';
    await openRoomInBackground();
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    expect(fake.client?.setRoomReadMarkers).not.toHaveBeenCalled();
    visibility = 'visible';
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    expect(fake.client?.setRoomReadMarkers).toHaveBeenCalledOnce();
    expect(vi.mocked(fake.client?.setRoomReadMarkers)?.mock.calls[0][1]).toBe('$hello');
  });
});
