// biome-ignore-all lint/suspicious/noExplicitAny: Matrix JSON and audit before/after are inspected loosely.
/**
 * Moderation: bans and mutes, their effects (queue, friend requests, chat), their end by time,
 * by an admin's lift or never (permanent), who may sanction, and the audit log of every admin
 * action with its filters.
 */
import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  connectSocket,
  createTestApp,
  createTestUser,
  manualClock,
  nextEvent,
  seedMatch,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { inTransaction } from '../../jobs';
import { AppError } from '../../lib/errors';
import { findUserById, sessionGenerationOf } from '../accounts/service';
import { sessionResponse } from '../accounts/session';
import { chatServerName, ensureGlobalRoom, matrixSessionFor } from '../chat/service';
import { matches } from '../matches/schema';
import { recordOffence } from '../queue/cooldowns';
import { queueEntries } from '../queue/schema';
import { joinQueue, queueState } from '../queue/service';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const clock = manualClock();
let t: TestApp;
let admin: TestUser;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp({ clock, env: { JOBS_POLL_MS: '0' } });
  admin = await createTestUser(t.app, { role: 'ADMIN', name: 'the-admin' });
  await t.listen();
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t?.close();
});

/** A player who could queue (voice linked), online. */
async function player(): Promise<TestUser> {
  const p = await createTestUser(t.app, { teamSpeakId: `ts-${Math.random().toString(36).slice(2)}` });
  sockets.push(await connectSocket(t.url, p.token));
  return p;
}

/** Fresh tokens: the tests move the clock past a token's life. */
/** A token issued now (after a ban, at the account's new session generation). */
const auth = async (u: TestUser) =>
  bearer((await t.app.ctx.tokens.sign(u.id, (await sessionGenerationOf(t.app.ctx.db, u.id)) ?? 0)).token);
const sanction = async (userId: string, body: object, by = admin) =>
  t.app.inject({
    method: 'POST',
    url: `/api/admin/users/${userId}/sanctions`,
    headers: await auth(by),
    payload: body,
  });
const lift = async (id: string, reason = 'appeal accepted', by = admin) =>
  t.app.inject({
    method: 'POST',
    url: `/api/admin/sanctions/${id}/lift`,
    headers: await auth(by),
    payload: { reason },
  });
const me = async (p: TestUser) =>
  (await t.app.inject({ method: 'GET', url: '/api/moderation/me', headers: await auth(p) })).json();
const history = async (p: TestUser) =>
  (
    await t.app.inject({
      method: 'GET',
      url: `/api/admin/users/${p.id}/sanctions`,
      headers: await auth(admin),
    })
  ).json();
const audit = async (query = '') =>
  (await t.app.inject({ method: 'GET', url: `/api/admin/audit${query}`, headers: await auth(admin) })).json();
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (err) => (err instanceof AppError ? `${err.status} ${err.key}` : String(err)),
  );
const friendRequest = async (from: TestUser, to: TestUser) =>
  t.app.inject({
    method: 'POST',
    url: '/api/friends',
    headers: await auth(from),
    payload: { recipient: to.id },
  });

/** The player's power level in the global room (undefined = the default). */
async function globalLevel(p: TestUser): Promise<number | undefined> {
  const roomId = await ensureGlobalRoom(t.app.ctx);
  const bot = await matrixSessionFor(t.app.ctx, admin.id);
  const res = await fetch(
    `${t.url}/_matrix/client/v3/rooms/${encodeURIComponent(roomId)}/state/m.room.power_levels/`,
    { headers: bearer(bot.accessToken) },
  );
  const pl = (await res.json()) as any;
  return pl.users?.[`@${p.id}:${chatServerName(t.app.ctx)}`];
}
async function sendGlobal(accessToken: string, txn: string) {
  const roomId = await ensureGlobalRoom(t.app.ctx);
  const res = await fetch(
    `${t.url}/_matrix/client/v3/rooms/${encodeURIComponent(roomId)}/send/m.room.message/${txn}`,
    {
      method: 'PUT',
      headers: { ...bearer(accessToken), 'content-type': 'application/json' },
      body: JSON.stringify({ msgtype: 'm.text', body: 'hello' }),
    },
  );
  return res.status;
}
const loginMatrix = async (p: TestUser) =>
  (await sessionResponse(t.app.ctx, (await findUserById(t.app.ctx.db, p.id))!)).matrix as {
    accessToken: string;
  } | null;

describe('bans', () => {
  it('a timed ban: out of the queue at once (no cooldown), refused queue, friends and chat; ends by time', async () => {
    const p = await player();
    const friend = await player();
    const chat = await loginMatrix(p);
    expect(await sendGlobal(chat!.accessToken, 'before-ban')).toBe(200);
    await joinQueue(t.app.ctx, p.id);
    expect((await queueState(t.app.ctx, p.id)).inQueue).toBe(true);

    const socket = await connectSocket(t.url, p.token);
    sockets.push(socket);
    const update = nextEvent<any>(socket, 'PRIVATE_MODERATION_UPDATE');
    const signedOut = nextEvent(socket, 'disconnect');
    const res = await sanction(p.id, { kind: 'ban', minutes: 60, reason: 'toxic in voice' });
    expect(res.statusCode).toBe(201);
    const ban = res.json();
    expect(ban).toMatchObject({
      kind: 'ban',
      reason: 'toxic in voice',
      startsAt: clock.now(),
      endsAt: clock.now() + 60 * MIN,
      liftedAt: null,
      active: true,
      createdBy: { _id: admin.id, name: 'the-admin' },
    });
    const expected = { reason: 'toxic in voice', endsAt: clock.now() + 60 * MIN };
    expect(await update).toEqual({ ban: expected, mute: null });
    // Every session ends (tokens, sockets, chat tokens; revocation.test.ts has the detail).
    expect(await signedOut).toBe('io server disconnect');
    expect(await me(p)).toEqual({ ban: expected, mute: null });

    // Removed from the queue, without a miss or cooldown; joining is refused.
    const state = await queueState(t.app.ctx, p.id);
    expect([state.inQueue, state.cooldown]).toEqual([false, null]);
    expect(await refusal(joinQueue(t.app.ctx, p.id))).toBe('403 BANNED');
    // No friend requests, no chat credentials, silenced in the global room.
    const fr = await friendRequest(p, friend);
    expect([fr.statusCode, fr.json().errors.msg]).toEqual([403, 'BANNED']);
    expect(await refusal(loginMatrix(p))).toBe('403 BANNED');
    expect(await globalLevel(p)).toBe(-1);
    expect(await sendGlobal(chat!.accessToken, 'during-ban')).toBe(401);
    // Others are not affected: the friend may still ask the banned player.
    expect((await friendRequest(friend, p)).statusCode).toBe(200);

    // One minute before the end: still banned. At the end: free again, the chat given back.
    clock.advance(59 * MIN);
    expect(await refusal(joinQueue(t.app.ctx, p.id))).toBe('403 BANNED');
    clock.advance(MIN);
    await t.app.ctx.jobs.runDue();
    expect(await me(p)).toEqual({ ban: null, mute: null });
    expect(await globalLevel(p)).toBeUndefined();
    expect(await loginMatrix(p)).not.toBeNull();
    expect(await refusal(joinQueue(t.app.ctx, p.id))).toBe('ok');
    expect((await history(p)).docs).toEqual([expect.objectContaining({ _id: ban._id, active: false })]);
  });

  it('a ban during an accept phase takes the player out of it without a miss; the rest are told', async () => {
    const ten = await Promise.all(Array.from({ length: 10 }, () => player()));
    for (const p of ten) await joinQueue(t.app.ctx, p.id);
    expect((await queueState(t.app.ctx, ten[0].id)).phase?.players).toHaveLength(10);
    const other = await connectSocket(t.url, ten[1].token);
    sockets.push(other);
    const told = nextEvent<any>(other, 'PRIVATE_QUEUE_READY_UPDATE');
    expect((await sanction(ten[0].id, { kind: 'ban', minutes: 5, reason: 'smurf' })).statusCode).toBe(201);
    expect((await told).players.find((x: any) => x.userId === ten[0].id).accepted).toBe(false);
    const banned = await queueState(t.app.ctx, ten[0].id);
    expect([banned.inQueue, banned.phase, banned.cooldown]).toEqual([false, null, null]);
    expect((await queueState(t.app.ctx, ten[1].id)).inQueue).toBe(true);
    const entry = (await audit(`?action=sanction.create&target=${ten[0].id}`)).docs[0];
    expect(entry.after.removedFromQueue).toBe(true);
    for (const p of ten.slice(1))
      await t.app.ctx.db.delete(queueEntries).where(eq(queueEntries.userId, p.id));
  });

  it('a permanent ban never ends by time; an admin lifts it early, once', async () => {
    const p = await player();
    const res = await sanction(p.id, { kind: 'ban', reason: 'cheating' });
    expect(res.json()).toMatchObject({ endsAt: null, active: true });
    clock.advance(3650 * DAY);
    await t.app.ctx.jobs.runDue();
    expect(await me(p)).toEqual({ ban: { reason: 'cheating', endsAt: null }, mute: null });
    expect(await refusal(joinQueue(t.app.ctx, p.id))).toBe('403 BANNED');

    const lifted = await lift(res.json()._id, 'false positive');
    expect(lifted.statusCode).toBe(200);
    expect(lifted.json()).toMatchObject({
      active: false,
      liftedAt: clock.now(),
      liftReason: 'false positive',
      liftedBy: { _id: admin.id, name: 'the-admin' },
    });
    expect(await me(p)).toEqual({ ban: null, mute: null });
    expect(await globalLevel(p)).toBeUndefined();
    expect(await refusal(joinQueue(t.app.ctx, p.id))).toBe('ok');
    const again = await lift(res.json()._id);
    expect([again.statusCode, again.json().errors.msg]).toEqual([409, 'SANCTION_NOT_ACTIVE']);
  });

  it('an ended sanction cannot be lifted; of two bans the longer one counts', async () => {
    const p = await player();
    const short = (await sanction(p.id, { kind: 'ban', minutes: 10, reason: 'short' })).json();
    await sanction(p.id, { kind: 'ban', minutes: 120, reason: 'long' });
    expect((await me(p)).ban).toEqual({ reason: 'long', endsAt: clock.now() + 120 * MIN });
    clock.advance(11 * MIN);
    expect((await lift(short._id)).json().errors.msg).toBe('SANCTION_NOT_ACTIVE');
    expect((await me(p)).ban.reason).toBe('long');
    const docs = (await history(p)).docs;
    expect(docs.map((d: any) => [d.reason, d.active])).toEqual(
      expect.arrayContaining([
        ['short', false],
        ['long', true],
      ]),
    );
  });
});

describe('mutes', () => {
  it('block the chat only: credentials still given (to read), queue and friend requests allowed', async () => {
    const p = await player();
    const friend = await player();
    const res = await sanction(p.id, { kind: 'mute', minutes: 30, reason: 'spam' });
    expect(res.statusCode).toBe(201);
    expect(await me(p)).toEqual({ ban: null, mute: { reason: 'spam', endsAt: clock.now() + 30 * MIN } });
    const chat = await loginMatrix(p);
    expect(chat).not.toBeNull();
    expect(await globalLevel(p)).toBe(-1);
    expect(await sendGlobal(chat!.accessToken, 'muted')).toBe(403);
    expect(await refusal(joinQueue(t.app.ctx, p.id))).toBe('ok');
    expect((await friendRequest(p, friend)).statusCode).toBe(200);

    await lift(res.json()._id);
    expect(await globalLevel(p)).toBeUndefined();
    expect(await sendGlobal(chat!.accessToken, 'unmuted')).toBe(200);
  });

  it('a ban and mutes at once: each kind shows its own, the mute ending last', async () => {
    const p = await player();
    await sanction(p.id, { kind: 'mute', minutes: 10, reason: 'short mute' });
    await sanction(p.id, { kind: 'ban', minutes: 20, reason: 'ban' });
    await sanction(p.id, { kind: 'mute', minutes: 60, reason: 'long mute' });
    expect(await me(p)).toEqual({
      ban: { reason: 'ban', endsAt: clock.now() + 20 * MIN },
      mute: { reason: 'long mute', endsAt: clock.now() + 60 * MIN },
    });
  });
});

describe('who may sanction', () => {
  it('players are refused (403) and nothing changes; the player reads only their own state', async () => {
    const p = await player();
    const other = await player();
    const res = await sanction(other.id, { kind: 'ban', reason: 'x' }, p);
    expect([res.statusCode, res.json().errors.msg]).toEqual([403, 'UNAUTHORIZED']);
    expect(await me(other)).toEqual({ ban: null, mute: null });
    const byAdmin = (await sanction(other.id, { kind: 'mute', reason: 'y' })).json();
    expect((await lift(byAdmin._id, 'x', p)).statusCode).toBe(403);
    for (const url of [`/api/admin/users/${other.id}/sanctions`, '/api/admin/audit']) {
      expect((await t.app.inject({ method: 'GET', url, headers: await auth(p) })).statusCode).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/moderation/me' })).statusCode).toBe(401);
  });

  it('refuses sanctioning yourself, unknown players, a bad duration and an empty reason', async () => {
    const self = await sanction(admin.id, { kind: 'ban', reason: 'x' });
    expect([self.statusCode, self.json().errors.msg]).toEqual([400, 'CANNOT_SANCTION_YOURSELF']);
    const unknown = await sanction('00000000-0000-4000-8000-000000000000', { kind: 'ban', reason: 'x' });
    expect(unknown.statusCode).toBe(404);
    const p = await player();
    expect((await sanction(p.id, { kind: 'ban', minutes: 0, reason: 'x' })).statusCode).toBe(422);
    expect((await sanction(p.id, { kind: 'ban', minutes: 1.5, reason: 'x' })).statusCode).toBe(422);
    expect((await sanction(p.id, { kind: 'kick', reason: 'x' })).statusCode).toBe(422);
    expect((await sanction(p.id, { kind: 'ban', reason: '   ' })).statusCode).toBe(422);
    expect((await history(p)).docs).toEqual([]);
  });
});

describe('audit log', () => {
  it('records every admin action with actor, target, reason, before and after', async () => {
    const p = await player();
    const from = clock.now();
    const find = async (action: string, target: string) =>
      (await audit(`?action=${action}&target=${target}&from=${from}`)).docs[0];

    const ban = (await sanction(p.id, { kind: 'ban', minutes: 5, reason: 'rude' })).json();
    const created = await find('sanction.create', p.id);
    expect(created).toMatchObject({
      actor: { _id: admin.id, name: 'the-admin' },
      targetType: 'user',
      targetId: p.id,
      targetName: p.name,
      reason: 'rude',
      before: { ban: null, mute: null },
      after: { ban: { reason: 'rude' }, sanction: { id: ban._id, kind: 'ban' }, removedFromQueue: false },
    });
    clock.advance(1000);
    await lift(ban._id, 'sorry');
    expect(await find('sanction.lift', p.id)).toMatchObject({
      reason: 'sorry',
      before: { ban: { reason: 'rude' }, sanction: { liftedAt: null } },
      after: { ban: null, sanction: { liftedAt: clock.now(), liftReason: 'sorry' } },
    });

    const role = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${p.id}/role`,
      headers: await auth(admin),
      payload: { role: 'ADMIN' },
    });
    expect(role.statusCode).toBe(200);
    expect(await find('user.role', p.id)).toMatchObject({
      before: { role: 'USER' },
      after: { role: 'ADMIN' },
    });
    await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${p.id}/role`,
      headers: await auth(admin),
      payload: { role: 'USER' },
    });

    const team = await Promise.all(Array.from({ length: 9 }, () => createTestUser(t.app)));
    const matchId = await seedMatch(t.app, 'active', [p, ...team]);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/admin/matches/${matchId}/cancel`,
          headers: await auth(admin),
        })
      ).statusCode,
    ).toBe(200);
    expect(await find('match.cancel', matchId)).toMatchObject({
      targetType: 'match',
      targetName: null,
      before: { status: 'active' },
      after: { status: 'cancelled', reason: 'ADMIN_CANCELLED' },
    });

    const cooldown = await inTransaction(t.app.ctx.db, (tx, after) =>
      recordOffence(t.app.ctx, tx, after, p.id, 'miss'),
    );
    await t.app.inject({
      method: 'POST',
      url: `/api/admin/users/${p.id}/cooldowns/lift`,
      headers: await auth(admin),
    });
    expect(await find('cooldown.lift', p.id)).toMatchObject({
      before: { cooldown: { kind: 'miss', endsAt: cooldown.endsAt } },
      after: { cooldown: null, lifted: 1 },
    });

    const drop = await t.app.inject({
      method: 'POST',
      url: '/api/drops/',
      headers: await auth(admin),
      payload: { name: 'Audit crate', image: 'crate', rarity: 'common', amount: 1 },
    });
    const dropId = drop.json()._id;
    expect(await find('drop.create', dropId)).toMatchObject({
      targetType: 'drop',
      before: null,
      after: { id: dropId, name: 'Audit crate', deletedAt: null },
    });
    await t.app.inject({ method: 'DELETE', url: `/api/drops/${dropId}`, headers: await auth(admin) });
    expect(await find('drop.delete', dropId)).toMatchObject({
      before: { name: 'Audit crate', deletedAt: null },
      after: { deletedAt: clock.now() },
    });
  });

  it('marks an awarded drop redeemed with an entry, and none for a refused action', async () => {
    const p = await player();
    const drop = await t.app.inject({
      method: 'POST',
      url: '/api/drops/',
      headers: await auth(admin),
      payload: { name: 'Redeem crate', image: 'crate', rarity: 'legendary', amount: 1 },
    });
    const matchId = await seedMatch(t.app, 'active', [p]);
    const rolled = await t.app.inject({
      method: 'POST',
      url: '/api/drops/engine/roll',
      headers: await auth(admin),
      payload: { force: true },
    });
    // Over, so later rolls cannot pick it again.
    await t.app.ctx.db.update(matches).set({ status: 'finished' }).where(eq(matches.id, matchId));
    const award = rolled.json().award;
    expect(award?.dropId).toBe(drop.json()._id);
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/drops/${award.awardId}`,
      headers: await auth(admin),
      payload: { redeemed: true },
    });
    expect(patched.statusCode).toBe(200);
    expect((await audit(`?action=drop.update&target=${award.awardId}`)).docs[0]).toMatchObject({
      before: { redeemed: false },
      after: { redeemed: true },
    });
    // Refused actions leave no entry.
    const before = (await audit()).totalDocs;
    await sanction(admin.id, { kind: 'ban', reason: 'x' });
    await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${admin.id}/role`,
      headers: await auth(p),
      payload: { role: 'USER' },
    });
    expect((await audit()).totalDocs).toBe(before);
  });

  it('filters by actor, action, target and time range, newest first, paged', async () => {
    const other = await createTestUser(t.app, { role: 'ADMIN', name: 'other-admin' });
    const a = await player();
    const b = await player();
    const start = clock.now() + 1;
    clock.advance(1);
    await sanction(a.id, { kind: 'mute', minutes: 5, reason: 'one' });
    clock.advance(1000);
    await sanction(b.id, { kind: 'mute', minutes: 5, reason: 'two' }, other);
    clock.advance(1000);
    await sanction(a.id, { kind: 'ban', minutes: 5, reason: 'three' }, other);
    const mid = clock.now();
    clock.advance(1000);
    const l = (await history(a)).docs.find((d: any) => d.reason === 'one');
    await lift(l._id, 'four');

    const reasons = (page: any) => page.docs.map((d: any) => d.reason);
    expect(reasons(await audit(`?from=${start}`))).toEqual(['four', 'three', 'two', 'one']);
    expect(reasons(await audit(`?from=${start}&actor=${other.id}`))).toEqual(['three', 'two']);
    expect(reasons(await audit(`?from=${start}&target=${a.id}`))).toEqual(['four', 'three', 'one']);
    expect(reasons(await audit(`?from=${start}&action=sanction.lift`))).toEqual(['four']);
    expect(reasons(await audit(`?from=${start}&to=${mid}`))).toEqual(['two', 'one']);
    expect(reasons(await audit(`?from=${mid}&to=${mid + 1}`))).toEqual(['three']);
    const page2 = await audit(`?from=${start}&limit=3&page=2`);
    expect([reasons(page2), page2.totalDocs]).toEqual([['one'], 4]);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/admin/audit?action=nope',
      headers: await auth(admin),
    });
    expect(bad.statusCode).toBe(422);
  });
});
