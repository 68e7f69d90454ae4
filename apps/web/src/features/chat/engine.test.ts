import {
  ConnectionError,
  createClient,
  MatrixError,
  MatrixEvent,
  NotificationCountType,
  Room,
} from 'matrix-js-sdk';
import { describe, expect, it } from 'vitest';
import { rejectsCredentials, roomUnread } from './engine';

describe('chat login failures (docs/contract.md §8: a chat login failure logs out)', () => {
  it('treats a refused token as a login failure', () => {
    expect(
      rejectsCredentials(new MatrixError({ errcode: 'M_UNKNOWN_TOKEN', error: 'Unknown token' }, 401)),
    ).toBe(true);
    expect(rejectsCredentials(new MatrixError({ errcode: 'M_FORBIDDEN', error: 'Forbidden' }, 403))).toBe(
      true,
    );
  });

  it('does not end the session for network failures, aborted requests or server errors', () => {
    expect(rejectsCredentials(new ConnectionError('fetch failed'))).toBe(false);
    expect(rejectsCredentials(new DOMException('The user aborted a request.', 'AbortError'))).toBe(false);
    expect(rejectsCredentials(new MatrixError({ errcode: 'M_UNKNOWN', error: 'boom' }, 502))).toBe(false);
    expect(rejectsCredentials(null)).toBe(false);
  });
});

describe("a room's unread count (docs/contract.md §4 Chat)", () => {
  const me = '@ben:hs.test';
  const ann = '@ann:hs.test';
  let ts = 1_000;
  const event = (id: string, type: string, sender: string, content: object, stateKey?: string) =>
    new MatrixEvent({
      event_id: id,
      room_id: '!dm:hs.test',
      type,
      sender,
      content,
      origin_server_ts: ts++,
      ...(stateKey === undefined ? {} : { state_key: stateKey }),
    });

  it("adds a friend's first message, sent before the invite was joined, to the server's count until read", async () => {
    const client = createClient({ baseUrl: 'http://hs.test', userId: me, accessToken: 't' });
    const room = new Room('!dm:hs.test', client, me);
    // The order the homeserver gives when the invitee joins late: invite, message, join.
    await room.addLiveEvents(
      [
        event('$create', 'm.room.create', ann, { creator: ann, room_version: '10' }, ''),
        event('$annJoin', 'm.room.member', ann, { membership: 'join' }, ann),
        event('$invite', 'm.room.member', ann, { membership: 'invite' }, me),
        event('$hello', 'm.room.message', ann, { msgtype: 'm.text', body: 'Hello Ben!' }),
        event('$join', 'm.room.member', me, { membership: 'join' }, me),
      ],
      { addToState: true },
    );
    // The server counts from the join on: nothing for the message before it.
    room.setUnreadNotificationCount(NotificationCountType.Total, 0);
    expect(roomUnread(room, me)).toBe(1);
    // A later message is the server's count; both add up.
    room.setUnreadNotificationCount(NotificationCountType.Total, 1);
    expect(roomUnread(room, me)).toBe(2);

    // Read up to the join (the latest event when the room was opened): the early message is read.
    room.addReceipt(
      new MatrixEvent({
        type: 'm.receipt',
        room_id: room.roomId,
        content: { $join: { 'm.read': { [me]: { ts: ts++ } } } },
      }),
    );
    room.setUnreadNotificationCount(NotificationCountType.Total, 0);
    expect(roomUnread(room, me)).toBe(0);
    client.stopClient();
  });
});
