import { describe, expect, it } from 'vitest';
import { formatMmSs } from '../../ui/countdown';
import {
  cleanMessageHtml,
  emojiOnlyCount,
  eventDisplay,
  groupRooms,
  groupTimeline,
  isDirectRoomCreator,
  launcherRoom,
  moderatesRoom,
  msgtypeForMime,
  notificationFor,
  notificationsMap,
  typingText,
  unreadElsewhere,
  unreadWhileInvited,
  zoomBy,
} from './rules';

describe('link cleaning (docs/contract.md §5)', () => {
  it('drops quote lines and escapes angle brackets', () => {
    expect(cleanMessageHtml('> <@a:x> hi\n\nthanks <b>bold</b>')).toBe('thanks &lt;b&gt;bold&lt;/b&gt;');
  });
  it('turns bare http(s) and www addresses into new-tab links, adding http:// when there is no scheme', () => {
    expect(cleanMessageHtml('see https://example.org/a?b=1.')).toBe(
      'see <a href="https://example.org/a?b=1" target="_blank" rel="noopener noreferrer">https://example.org/a?b=1</a>.',
    );
    expect(cleanMessageHtml('www.openpug.gg')).toBe(
      '<a href="http://www.openpug.gg" target="_blank" rel="noopener noreferrer">www.openpug.gg</a>',
    );
  });
  it('turns markdown links with relative or http(s) targets into links, leaves others as text', () => {
    expect(cleanMessageHtml('[match](/match/1)')).toBe('<a href="/match/1">match</a>');
    expect(cleanMessageHtml('[docs](https://x.org)')).toBe(
      '<a href="https://x.org" target="_blank" rel="noopener noreferrer">docs</a>',
    );
    expect(cleanMessageHtml('[bad](javascript:alert(1))')).toBe('[bad](javascript:alert(1))');
  });
  it('cannot break out of the href attribute', () => {
    expect(cleanMessageHtml('http://x.org/"onmouseover="a')).not.toContain('"onmouseover');
  });
});

describe('emoji-only sizing', () => {
  it('counts emoji only when the text is only emoji', () => {
    expect(emojiOnlyCount('🔥')).toBe(1);
    expect(emojiOnlyCount(' 👍🏽 ')).toBe(1);
    expect(emojiOnlyCount('👨‍👩‍👧')).toBe(1);
    expect(emojiOnlyCount('🔥 🎉')).toBe(2);
    expect(emojiOnlyCount('gg 🔥')).toBe(0);
    expect(emojiOnlyCount('12')).toBe(0);
    expect(emojiOnlyCount('')).toBe(0);
  });
});

describe('typing texts', () => {
  it('follows docs/contract.md §2', () => {
    expect(typingText([])).toBeNull();
    expect(typingText(['Ann'])).toEqual({ key: 'chat.typing.one', params: { name: 'Ann' } });
    expect(typingText(['Ann', 'Bob'])).toEqual({
      key: 'chat.typing.two',
      params: { name: 'Ann', other: 'Bob' },
    });
    expect(typingText(['Ann', 'Bob', 'Cy', 'Di'])).toEqual({
      key: 'chat.typing.many',
      params: { name: 'Ann', count: 3 },
    });
  });
});

describe('timeline grouping', () => {
  const at = (d: string) => new Date(d).getTime();
  const ev = (id: string, sender: string, ts: number, type = 'm.room.message') => ({ id, sender, ts, type });
  it('groups by day, then by consecutive sender; groups without a room message are hidden', () => {
    const days = groupTimeline([
      ev('c', '@s', at('2024-05-01T09:00:00'), 'm.room.create'),
      ev('1', '@a', at('2024-05-01T10:00:00')),
      ev('2', '@a', at('2024-05-01T10:01:00')),
      ev('3', '@b', at('2024-05-01T11:00:00')),
      ev('4', '@a', at('2024-05-02T08:00:00')),
      ev('5', '@b', at('2024-05-02T08:00:01'), 'm.room.member'),
    ]);
    expect(days.map((d) => d.day)).toEqual(['2024-05-01', '2024-05-02']);
    expect(days[0].groups.map((g) => [g.sender, g.events.map((e) => e.id)])).toEqual([
      ['@a', ['1', '2']],
      ['@b', ['3']],
    ]);
    expect(days[1].groups.map((g) => g.sender)).toEqual(['@a']);
  });
});

describe('event display and msgtype', () => {
  it('shows the six message types, else the unsupported / deleted texts', () => {
    expect(eventDisplay('m.room.message', { msgtype: 'm.image' })).toEqual({
      kind: 'message',
      msgtype: 'm.image',
    });
    expect(eventDisplay('m.room.message', { msgtype: 'm.location' })).toEqual({
      kind: 'unsupported-msgtype',
      msgtype: 'm.location',
    });
    expect(eventDisplay('m.room.message', {})).toEqual({ kind: 'deleted' });
    expect(eventDisplay('m.sticker', {})).toEqual({ kind: 'unsupported-event' });
  });
  it('takes the attachment type from the mime major type', () => {
    expect(msgtypeForMime('image/png')).toBe('m.image');
    expect(msgtypeForMime('audio/webm;codecs=opus')).toBe('m.audio');
    expect(msgtypeForMime('video/mp4')).toBe('m.video');
    expect(msgtypeForMime('application/pdf')).toBe('m.file');
    expect(msgtypeForMime('')).toBe('m.file');
  });
});

describe('rooms and notifications', () => {
  const r = (roomId: string, lastActive: number, tags: string[] = [], unread = 0) => ({
    roomId,
    name: roomId,
    lastActive,
    tags,
    unread,
  });
  it('groups rooms into all/favourite/lowPriority/other, newest activity first', () => {
    const g = groupRooms([r('a', 1), r('b', 3, ['m.favourite']), r('c', 2, ['m.lowpriority']), r('d', 4)]);
    expect(g.all.map((x) => x.roomId)).toEqual(['d', 'b', 'c', 'a']);
    expect(g.favourite.map((x) => x.roomId)).toEqual(['b']);
    expect(g.lowPriority.map((x) => x.roomId)).toEqual(['c']);
    expect(g.other.map((x) => x.roomId)).toEqual(['d', 'a']);
  });
  it('keeps only rooms with unread > 0 in the notifications map', () => {
    expect(notificationsMap([r('a', 0, [], 2), r('b', 0, [], 0)])).toEqual({ a: 2 });
  });
  it('applies the desktop-notification rules of docs/contract.md §9', () => {
    const base = {
      now: 100_000,
      eventTs: 95_000,
      roomId: '!r',
      openRoomId: null,
      memberCount: 2,
      msgtype: 'm.text',
    };
    expect(notificationFor(base)).toEqual({ show: true, sound: true });
    expect(notificationFor({ ...base, msgtype: 'm.image' })).toEqual({ show: true, sound: false });
    expect(notificationFor({ ...base, eventTs: 89_000 }).show).toBe(false);
    expect(notificationFor({ ...base, openRoomId: '!r' }).show).toBe(false);
    expect(notificationFor({ ...base, memberCount: 3 })).toEqual({ show: false, sound: false });
  });
});

describe('small helpers', () => {
  it('zooms in 0.25 steps within 0.1–10', () => {
    expect(zoomBy(1, 1)).toBe(1.25);
    expect(zoomBy(0.25, -1)).toBe(0.1);
    expect(zoomBy(10, 1)).toBe(10);
  });
  it('accepts a direct room only when one of the two players created it', () => {
    const a = '11111111-1111-4111-8111-111111111111';
    const b = '22222222-2222-4222-8222-222222222222';
    const c = '33333333-3333-4333-8333-333333333333';
    expect(isDirectRoomCreator(`@${a}:pug.example`, [a, b], 'pug.example')).toBe(true);
    expect(isDirectRoomCreator(`@${b}:pug.example`, [a, b], 'pug.example')).toBe(true);
    expect(isDirectRoomCreator(`@${c}:pug.example`, [a, b], 'pug.example')).toBe(false);
    expect(isDirectRoomCreator(`@${a}:evil.example`, [a, b], 'pug.example')).toBe(false);
    expect(isDirectRoomCreator(undefined, [a, b], 'pug.example')).toBe(false);
  });
  it('formats the recording time as mm:ss', () => {
    expect(formatMmSs(65_000 / 1000)).toBe('01:05');
    expect(formatMmSs(9_500 / 1000)).toBe('00:09');
  });
});

describe('who moderates a room (docs/contract.md §4 Chat moderation)', () => {
  const base = { isAdmin: false, captain: false, roomId: '!r:x', globalRoomId: '!g:x', canonicalAlias: null };
  it('admins moderate the global room (by id or alias) and match rooms, not direct chats', () => {
    expect(moderatesRoom({ ...base, isAdmin: true, roomId: '!g:x' })).toBe(true);
    expect(moderatesRoom({ ...base, isAdmin: true, globalRoomId: null, canonicalAlias: '#global:x' })).toBe(
      true,
    );
    expect(moderatesRoom({ ...base, isAdmin: true, canonicalAlias: '#match_abc:x' })).toBe(true);
    expect(moderatesRoom({ ...base, isAdmin: true, canonicalAlias: '#a_b:x' })).toBe(false);
    expect(moderatesRoom({ ...base, isAdmin: true })).toBe(false);
  });
  it("a match's captain moderates match rooms only; a player nothing", () => {
    expect(moderatesRoom({ ...base, captain: true, canonicalAlias: '#match_abc:x' })).toBe(true);
    expect(moderatesRoom({ ...base, captain: true, roomId: '!g:x' })).toBe(false);
    expect(moderatesRoom({ ...base, roomId: '!g:x', canonicalAlias: '#global:x' })).toBe(false);
  });
});

describe('the chat button and the rooms button (phone: direct messages one tap away)', () => {
  const rooms = [
    { roomId: '!global', lastActive: 30, unread: 0 },
    { roomId: '!dm-old', lastActive: 10, unread: 2 },
    { roomId: '!dm-new', lastActive: 20, unread: 1 },
  ];
  it('opens the newest room with unread messages, else the room open last', () => {
    expect(launcherRoom(rooms, '!global')).toBe('!dm-new');
    expect(
      launcherRoom(
        rooms.map((r) => ({ ...r, unread: 0 })),
        '!global',
      ),
    ).toBe('!global');
    expect(launcherRoom([], null)).toBeNull();
  });
  it('counts the unread messages of the other rooms', () => {
    expect(unreadElsewhere(rooms, '!dm-old')).toBe(1);
    expect(unreadElsewhere(rooms, 'global')).toBe(3);
  });
});

describe('messages that came while invited count as unread (docs/contract.md §4 Chat)', () => {
  const me = '@me:hs';
  const member = (id: string, membership: string) => ({
    id,
    type: 'm.room.member',
    sender: membership === 'invite' ? '@friend:hs' : me,
    stateKey: me,
    membership,
    redacted: false,
  });
  const message = (
    id: string,
    over: Partial<{ sender: string; msgtype: string; redacted: boolean }> = {},
  ) => ({
    id,
    type: 'm.room.message',
    sender: over.sender ?? '@friend:hs',
    stateKey: undefined,
    msgtype: over.msgtype ?? 'm.text',
    redacted: over.redacted ?? false,
  });

  it('counts the messages from others between my invite and my join', () => {
    const events = [
      message('$before'),
      member('$invite', 'invite'),
      message('$first'),
      member('$join', 'join'),
    ];
    expect(unreadWhileInvited(events, me, null)).toBe(1);
    // Messages after the join are the server's count, not added again.
    expect(unreadWhileInvited([...events, message('$after')], me, null)).toBe(1);
  });
  it('leaves out my own messages, notices and redacted messages', () => {
    const events = [
      member('$invite', 'invite'),
      message('$mine', { sender: me }),
      message('$notice', { msgtype: 'm.notice' }),
      message('$gone', { redacted: true }),
      message('$counted'),
      member('$join', 'join'),
    ];
    expect(unreadWhileInvited(events, me, null)).toBe(1);
  });
  it('counts nothing my read receipt covers', () => {
    const events = [
      member('$invite', 'invite'),
      message('$one'),
      message('$two'),
      member('$join', 'join'),
      message('$after'),
    ];
    expect(unreadWhileInvited(events, me, '$one')).toBe(1);
    expect(unreadWhileInvited(events, me, '$join')).toBe(0);
    expect(unreadWhileInvited(events, me, '$after')).toBe(0);
  });
  it('counts nothing in a room I was never invited to (joined directly)', () => {
    expect(unreadWhileInvited([message('$a'), member('$join', 'join'), message('$b')], me, null)).toBe(0);
  });
});
