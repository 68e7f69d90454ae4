/**
 * "Second click": the state-changing calls sent twice, one after the other and at the same time
 * (a double click, two tabs). Each answers an idempotent success or a catalogue refusal — never a
 * 500 — and the effect happens once.
 */
import { randomUUID } from 'node:crypto';
import { and, count, eq, or } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matches } from '../src/db/schema';
import { matrixSessionFor } from '../src/modules/chat/service';
import { friendRequests } from '../src/modules/friends/schema';
import { queueEntries } from '../src/modules/queue/schema';
import {
  bearer,
  connectSocket,
  createTestApp,
  createTestUser,
  seedMatch,
  type TestApp,
  type TestUser,
  unlockByDrop,
} from './helpers';

let t: TestApp;
let admin: TestUser;
const sockets: Socket[] = [];

const api = (user: TestUser, method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url, payload, headers: bearer(user.token) });
const answer = (res: { statusCode: number; json(): unknown }) => [res.statusCode, res.json()];
const refusal = (status: number, msg: string) => [status, { errors: { msg } }];

beforeAll(async () => {
  t = await createTestApp();
  await t.listen();
  admin = await createTestUser(t.app, { role: 'ADMIN' });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.close();
});

describe('second click', () => {
  it('admin cancel, twice at once and once more: one cancellation, then WRONG_MATCH_PHASE', async () => {
    const players = [await createTestUser(t.app), await createTestUser(t.app)];
    const matchId = await seedMatch(t.app, 'active', players);
    const ended: string[] = [];
    t.app.ctx.bus.on('match.ended', (e) => void ended.push(e.matchId));
    const url = `/api/admin/matches/${matchId}/cancel`;
    const both = await Promise.all([api(admin, 'POST', url), api(admin, 'POST', url)]);
    const third = await api(admin, 'POST', url);
    const statuses = [...both, third].map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 409, 409]);
    for (const r of [...both, third].filter((r) => r.statusCode === 409))
      expect(r.json()).toEqual({ errors: { msg: 'WRONG_MATCH_PHASE' } });
    const [row] = await t.app.ctx.db.select().from(matches).where(eq(matches.id, matchId));
    expect(row.status).toBe('cancelled');
    await expect.poll(() => ended.filter((id) => id === matchId)).toHaveLength(1);
  });

  it('friend request twice (also both ways at once): one request, then FRIEND_REQUEST_ALREADY_EXISTS', async () => {
    const ann = await createTestUser(t.app);
    const bob = await createTestUser(t.app);
    const send = (from: TestUser, to: TestUser) => api(from, 'POST', '/api/friends', { recipient: to.id });
    const sent = await Promise.all([send(ann, bob), send(ann, bob), send(bob, ann)]);
    expect(sent.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    for (const r of sent.filter((r) => r.statusCode === 409))
      expect(r.json()).toEqual({ errors: { msg: 'FRIEND_REQUEST_ALREADY_EXISTS' } });
    expect(answer(await send(ann, bob))).toEqual(refusal(409, 'FRIEND_REQUEST_ALREADY_EXISTS'));
    const between = or(
      and(eq(friendRequests.requesterId, ann.id), eq(friendRequests.recipientId, bob.id)),
      and(eq(friendRequests.requesterId, bob.id), eq(friendRequests.recipientId, ann.id)),
    );
    const [{ n }] = await t.app.ctx.db.select({ n: count() }).from(friendRequests).where(between);
    expect(n).toBe(1);
  });

  it('accept twice at once: friends once, the other click FRIEND_REQUEST_ALREADY_ANSWERED', async () => {
    const ann = await createTestUser(t.app);
    const bob = await createTestUser(t.app);
    const request = (await api(ann, 'POST', '/api/friends', { recipient: bob.id })).json() as { _id: string };
    const url = `/api/friends/${request._id}`;
    const accepted = await Promise.all([
      api(bob, 'PATCH', url, { accepted: true }),
      api(bob, 'PATCH', url, { accepted: true }),
    ]);
    expect(accepted.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const refused = accepted.find((r) => r.statusCode === 409);
    expect(refused?.json()).toEqual({ errors: { msg: 'FRIEND_REQUEST_ALREADY_ANSWERED' } });
    // Declining after accepting is refused too; the friendship stays.
    expect(answer(await api(bob, 'PATCH', url, { accepted: false }))).toEqual(
      refusal(409, 'FRIEND_REQUEST_ALREADY_ANSWERED'),
    );
    const friends = (await api(ann, 'GET', '/api/friends')).json() as { friends: { _id: string }[] };
    expect(friends.friends.map((f) => f._id)).toEqual([bob.id]);
  });

  it('queue join twice at once: in the queue once, the other click ALREADY_IN_QUEUE', async () => {
    const player = await createTestUser(t.app, { teamSpeakId: `ts-${randomUUID()}` });
    const socket = await connectSocket(t.url, player.token);
    sockets.push(socket);
    const join = () => socket.timeout(5_000).emitWithAck('queue-message', { event: 'join' });
    const replies = (await Promise.all([join(), join()])) as { ok: boolean; msg?: string }[];
    expect(replies.map((r) => r.ok).sort()).toEqual([false, true]);
    expect(replies.find((r) => !r.ok)).toEqual({ ok: false, msg: 'ALREADY_IN_QUEUE' });
    const [{ n }] = await t.app.ctx.db
      .select({ n: count() })
      .from(queueEntries)
      .where(eq(queueEntries.userId, player.id));
    expect(n).toBe(1);
    const leave = () => socket.timeout(5_000).emitWithAck('queue-message', { event: 'leave' });
    const left = (await Promise.all([leave(), leave()])) as { ok: boolean; msg?: string }[];
    expect(left.map((r) => r.ok).sort()).toEqual([false, true]);
    expect(left.find((r) => !r.ok)).toEqual({ ok: false, msg: 'NOT_IN_QUEUE' });
  });

  it('drop redeem twice: the same answer both times', async () => {
    const player = await createTestUser(t.app);
    await unlockByDrop(t.app, player, { unlocksBanner: 'sunset' });
    const awards = (await api(admin, 'GET', '/api/drops/awards')).json() as {
      docs: { _id: string; owner: { _id: string } }[];
    };
    const award = awards.docs.find((d) => d.owner._id === player.id);
    expect(award).toBeDefined();
    const url = `/api/drops/${award?._id}`;
    const both = await Promise.all([
      api(admin, 'PATCH', url, { redeemed: true }),
      api(admin, 'PATCH', url, { redeemed: true }),
    ]);
    expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(both[0].json()).toEqual(both[1].json());
    expect(both[0].json()).toMatchObject({ redeemed: true, msg: 'SAVED_SUCCESSFULLY' });
  });

  it('PATCH /api/profile with the same sound twice at once: the same profile both times', async () => {
    const player = await createTestUser(t.app);
    await unlockByDrop(t.app, player, { unlocksSound: 'chime.mp3' });
    const both = await Promise.all([
      api(player, 'PATCH', '/api/profile', { sound: 'chime.mp3' }),
      api(player, 'PATCH', '/api/profile', { sound: 'chime.mp3' }),
    ]);
    expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(both[0].json()).toEqual(both[1].json());
    expect((await api(player, 'GET', '/api/profile')).json()).toMatchObject({ sound: 'chime.mp3' });
  });

  it('redact twice with different transaction ids: redacted once, no 500', async () => {
    const player = await createTestUser(t.app);
    await t.app.ctx.bus.emit('user.created', { userId: player.id });
    const { accessToken } = await matrixSessionFor(t.app.ctx, player.id);
    const mx = (method: 'POST' | 'PUT' | 'GET', url: string, payload?: object) =>
      t.app.inject({ method, url: `/_matrix/client/v3${url}`, payload, headers: bearer(accessToken) });
    const roomId = (await mx('POST', '/createRoom', {})).json().room_id as string;
    const room = `/rooms/${encodeURIComponent(roomId)}`;
    const sent = await mx('PUT', `${room}/send/m.room.message/m1`, { msgtype: 'm.text', body: 'oops' });
    const eventId = encodeURIComponent(sent.json().event_id);
    const both = await Promise.all([
      mx('PUT', `${room}/redact/${eventId}/r1`, { reason: 'first' }),
      mx('PUT', `${room}/redact/${eventId}/r2`, { reason: 'second' }),
    ]);
    expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
    // A retry of the same transaction answers the same redaction event.
    const retry = await mx('PUT', `${room}/redact/${eventId}/r1`, { reason: 'first' });
    expect(retry.json().event_id).toBe(both[0].json().event_id);
    const event = await mx('GET', `${room}/event/${eventId}`);
    expect(event.statusCode).toBe(200);
    expect(event.json().content).toEqual({});
  });
});
