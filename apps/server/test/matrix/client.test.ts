// biome-ignore-all lint/suspicious/noExplicitAny: matrix-js-sdk event contents are inspected loosely.
/**
 * matrix-js-sdk (43, with a Promise.withResolvers polyfill for Node 20) drives each homeserver
 * through the product's chat scenarios (docs/contract.md §4 Chat, §7): DM by alias with create-and-invite
 * fallback, auto-join of invites, the six message types, replies, redactions, upload and
 * thumbnail, typing, receipts and unread counts, tags and scrollback.
 */
import './polyfill';
import { directRoomAliasLocalpart } from '@openpug/shared';
import * as sdk from 'matrix-js-sdk';
import { logger } from 'matrix-js-sdk/lib/logger.js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventDisplay } from '../../../web/src/features/chat/rules';
import { type MatrixUser, registerUser, serverOf, type Target, targets, testPng } from './targets';

(logger as unknown as { disableAll(): void }).disableAll();

async function waitFor<T>(fn: () => T | undefined | null | false, ms = 8000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function startClient(t: Target, u: MatrixUser): Promise<sdk.MatrixClient> {
  const client = sdk.createClient({
    baseUrl: t.url,
    accessToken: u.accessToken,
    userId: u.userId,
    deviceId: u.deviceId,
  });
  // The product's rule: invited rooms are joined automatically.
  client.on(sdk.RoomMemberEvent.Membership, (_e, member) => {
    if (member.userId === u.userId && member.membership === 'invite') void client.joinRoom(member.roomId);
  });
  const prepared = new Promise<void>((resolve) =>
    client.on(sdk.ClientEvent.Sync, (state) => {
      if (state === 'PREPARED') resolve();
    }),
  );
  await client.startClient({ initialSyncLimit: 10, lazyLoadMembers: false });
  await prepared;
  return client;
}

/** docs/contract.md §4: join the room by the sorted-ids alias; if that fails, create it and invite the friend. */
async function openDirectRoom(client: sdk.MatrixClient, friendId: string): Promise<string> {
  const me = client.getUserId()!;
  const localpart = directRoomAliasLocalpart(me.slice(1).split(':')[0], friendId.slice(1).split(':')[0]);
  const alias = `#${localpart}:${serverOf(me)}`;
  try {
    return (await client.joinRoom(alias)).roomId;
  } catch {
    const { room_id } = await client.createRoom({
      preset: sdk.Preset.PrivateChat,
      room_alias_name: localpart,
      is_direct: true,
      invite: [friendId],
      visibility: sdk.Visibility.Private,
    });
    return room_id;
  }
}

const bodies = (room: sdk.Room) =>
  room
    .getLiveTimeline()
    .getEvents()
    .filter((e) => e.getType() === 'm.room.message')
    .map((e) => e.getContent().body);

describe.each(targets())('matrix-js-sdk against $name', (spec) => {
  let t: Target;
  let a: MatrixUser;
  let b: MatrixUser;
  let ca: sdk.MatrixClient;
  let cb: sdk.MatrixClient;
  let dm: string;
  beforeAll(async () => {
    t = await spec.start();
    [a, b] = await Promise.all([registerUser(t, 'ann'), registerUser(t, 'ben')]);
    [ca, cb] = await Promise.all([startClient(t, a), startClient(t, b)]);
  });
  afterAll(async () => {
    ca?.stopClient();
    cb?.stopClient();
    await t?.close();
  });

  it('opens a DM by alias: creates it the first time, the friend auto-joins, the second opener joins it', async () => {
    dm = await openDirectRoom(ca, b.userId);
    await waitFor(() => cb.getRoom(dm)?.getMyMembership() === 'join');
    expect(await openDirectRoom(cb, a.userId)).toBe(dm);
    expect(await openDirectRoom(ca, b.userId)).toBe(dm);
    await waitFor(() => ca.getRoom(dm)?.getJoinedMemberCount() === 2);
  });

  it('delivers all six message types and a reply', async () => {
    const png = await testPng(120, 80);
    const { content_uri } = await ca.uploadContent(png, { type: 'image/png', name: 'pic.png' });
    const contents: any[] = [
      { msgtype: 'm.text', body: 'hello ben' },
      { msgtype: 'm.notice', body: 'a notice' },
      {
        msgtype: 'm.image',
        body: 'pic.png',
        url: content_uri,
        info: { mimetype: 'image/png', w: 120, h: 80 },
      },
      { msgtype: 'm.file', body: 'notes.txt', url: content_uri, info: { mimetype: 'text/plain' } },
      {
        msgtype: 'm.audio',
        body: 'Recording-1700000000000.mp3',
        url: content_uri,
        info: { mimetype: 'audio/mpeg' },
      },
      { msgtype: 'm.video', body: 'clip.mp4', url: content_uri, info: { mimetype: 'video/mp4' } },
    ];
    for (const c of contents) await ca.sendMessage(dm, c);
    const room = await waitFor(() => {
      const r = cb.getRoom(dm);
      return r && bodies(r).includes('clip.mp4') ? r : undefined;
    });
    const received = room
      .getLiveTimeline()
      .getEvents()
      .filter((e) => e.getType() === 'm.room.message')
      .map((e) => e.getContent().msgtype);
    expect(received).toEqual(['m.text', 'm.notice', 'm.image', 'm.file', 'm.audio', 'm.video']);

    const hello = room
      .getLiveTimeline()
      .getEvents()
      .find((e) => e.getContent().body === 'hello ben')!;
    await cb.sendMessage(dm, {
      msgtype: 'm.text',
      body: '> <ann> hello ben\n\nhi ann',
      'm.relates_to': { 'm.in_reply_to': { event_id: hello.getId()! } },
    } as any);
    const reply = await waitFor(() =>
      ca
        .getRoom(dm)
        ?.getLiveTimeline()
        .getEvents()
        .find((e) => e.getContent().body?.endsWith('hi ann')),
    );
    expect(reply.replyEventId).toBe(hello.getId());
  });

  it('downloads the image and a 64 px cropped thumbnail through authenticated media', async () => {
    const image = cb
      .getRoom(dm)!
      .getLiveTimeline()
      .getEvents()
      .find((e) => e.getContent().msgtype === 'm.image')!;
    const mxc = image.getContent().url as string;
    const headers = { authorization: `Bearer ${b.accessToken}` };
    const full = cb.mxcUrlToHttp(mxc, undefined, undefined, undefined, false, true, true)!;
    const res = await fetch(full, { headers });
    expect(res.status).toBe(200);
    expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).width).toBe(120);
    const thumbUrl = cb.mxcUrlToHttp(mxc, 64, 64, 'crop', false, true, true)!;
    const thumb = await fetch(thumbUrl, { headers });
    expect(thumb.status).toBe(200);
    const meta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
    expect(meta.width).toBe(meta.height);
    expect(meta.width).toBeGreaterThanOrEqual(64);
  });

  it('shows typing to the other member', async () => {
    const typing = new Promise<string[]>((resolve) => {
      const onTyping = (_e: unknown, member: sdk.RoomMember) => {
        if (member.roomId === dm && member.userId === a.userId && member.typing) {
          cb.off(sdk.RoomMemberEvent.Typing, onTyping);
          resolve([member.userId]);
        }
      };
      cb.on(sdk.RoomMemberEvent.Typing, onTyping);
    });
    await ca.sendTyping(dm, true, 5000);
    expect(await typing).toEqual([a.userId]);
    await ca.sendTyping(dm, false, 0);
    await waitFor(() => cb.getRoom(dm)?.getMember(a.userId)?.typing === false);
  });

  it('a redacted message is shown as deleted, live and to a client that loads it later', async () => {
    const { event_id } = await ca.sendMessage(dm, { msgtype: sdk.MsgType.Text, body: 'take this back' });
    await waitFor(() => cb.getRoom(dm)?.findEventById(event_id));
    await ca.redactEvent(dm, event_id, undefined, { reason: 'oops' });
    const live = await waitFor(() => {
      const e = cb.getRoom(dm)?.findEventById(event_id);
      return e?.isRedacted() ? e : undefined;
    });
    // What the chat screen (ChatRoom.tsx) decides to render for it.
    expect(eventDisplay(live.getType(), live.getContent())).toEqual({ kind: 'deleted' });
    const fresh = await startClient(t, b);
    try {
      const loaded = await waitFor(() => fresh.getRoom(dm)?.findEventById(event_id));
      expect(loaded.isRedacted()).toBe(true);
      expect(loaded.getUnsigned().redacted_because?.content).toMatchObject({ reason: 'oops' });
      expect(eventDisplay(loaded.getType(), loaded.getContent())).toEqual({ kind: 'deleted' });
    } finally {
      fresh.stopClient();
    }
  });

  it('counts unread messages and clears them with a read receipt the sender sees', async () => {
    for (const body of ['u1', 'u2', 'u3']) await ca.sendMessage(dm, { msgtype: sdk.MsgType.Text, body });
    const room = await waitFor(() => {
      const r = cb.getRoom(dm);
      return r &&
        bodies(r).includes('u3') &&
        r.getUnreadNotificationCount(sdk.NotificationCountType.Total) > 0
        ? r
        : undefined;
    });
    expect(room.getUnreadNotificationCount(sdk.NotificationCountType.Total)).toBeGreaterThanOrEqual(3);
    const last = room.getLiveTimeline().getEvents().at(-1)!;
    await cb.sendReadReceipt(last);
    await cb.setRoomReadMarkers(dm, last.getId()!);
    await waitFor(() => room.getUnreadNotificationCount(sdk.NotificationCountType.Total) === 0);
    await waitFor(() => ca.getRoom(dm)?.getEventReadUpTo(b.userId) === last.getId());
  });

  it('tags rooms favourite and low priority', async () => {
    await cb.setRoomTag(dm, 'm.favourite', { order: 0.25 });
    await waitFor(() => cb.getRoom(dm)?.tags['m.favourite']);
    await cb.deleteRoomTag(dm, 'm.favourite');
    await cb.setRoomTag(dm, 'm.lowpriority', {});
    await waitFor(() => {
      const tags = cb.getRoom(dm)?.tags ?? {};
      return tags['m.lowpriority'] && !tags['m.favourite'];
    });
  });

  it('scrolls back 30 events at a time to the room creation event', async () => {
    for (let i = 0; i < 45; i++)
      await ca.sendMessage(dm, { msgtype: sdk.MsgType.Text, body: `history ${i}` });
    // A fresh client sees only the newest events, then pages back like the chat screen does.
    const fresh = await startClient(t, b);
    try {
      const room = await waitFor(() => fresh.getRoom(dm));
      const hasCreate = () =>
        room
          .getLiveTimeline()
          .getEvents()
          .some((e) => e.getType() === 'm.room.create');
      for (let i = 0; i < 10 && !hasCreate(); i++) await fresh.scrollback(room, 30);
      expect(hasCreate()).toBe(true);
      const all = bodies(room);
      expect(all.filter((x) => x?.startsWith('history '))).toHaveLength(45);
      expect(all[0]).toBe('hello ben');
    } finally {
      fresh.stopClient();
    }
  });
});
