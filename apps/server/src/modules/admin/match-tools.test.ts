/**
 * Admin match tools (match-tools.ts, docs/contract.md §4 "Admin match tools"): force a result,
 * correct and void a finished match with the Elo history of every affected player kept exact
 * across their later matches, swap a player (roster, queue, game server), move a match to another
 * server; each audited with its reason; players, bad input and wrong phases change nothing.
 */
import { and, eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  connectSocket,
  createTestApp,
  createTestUser,
  manualClock,
  seedMatch,
  startMatch,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { jobs } from '../../jobs/schema';
import { users } from '../accounts/schema';
import { chat, ensureBot, joinMatchRoom, matrixIdOfUser } from '../chat/service';
import { GameServerUnavailableError } from '../gameservers/matchzy-provider';
import type { AllocateRequest, GameServerProvider, RosterPlayer } from '../gameservers/provider';
import { setProvider } from '../gameservers/service';
import { NO_SHOW_KEY } from '../matches/presence';
import { matchEvents, matches, matchPlayers, matchRounds } from '../matches/schema';
import { liveJob } from '../matches/service';
import { auditLog } from '../moderation/schema';
import { queueEntries } from '../queue/schema';

const clock = manualClock();
let t: TestApp;
let admin: TestUser;
const sockets: Socket[] = [];

/** A provider that hands out numbered servers and records what it is asked. */
const calls = { allocate: [] as AllocateRequest[], vacate: [] as string[], swap: [] as unknown[] };
let serverFree = true;
const recording: GameServerProvider = {
  name: 'recording',
  allocate: async (req) => {
    if (!serverFree) throw new GameServerUnavailableError('every CS2 server is busy');
    calls.allocate.push(req);
    const n = calls.allocate.length;
    return { connect: `10.0.0.${n}:27015`, gotv: `10.0.0.${n}:27020` };
  },
  release: async () => {},
  vacate: async (matchId) => {
    calls.vacate.push(matchId);
    return `10.0.0.${calls.allocate.length}:27015`;
  },
  swapPlayer: async (matchId: string, out: RosterPlayer, sub: RosterPlayer, team) =>
    void calls.swap.push({ matchId, out: out.userId, sub: sub.userId, team }),
};

const tool = (matchId: string, path: string, payload: unknown, token = admin.token) =>
  t.app.inject({
    method: 'POST',
    url: `/api/admin/matches/${matchId}/${path}`,
    headers: bearer(token),
    payload: payload as Record<string, unknown>,
  });
const matchRow = async (id: string) =>
  (await t.app.ctx.db.select().from(matches).where(eq(matches.id, id)))[0];
const eloOf = async (userId: string) =>
  (await t.app.ctx.db.select({ elo: users.elo }).from(users).where(eq(users.id, userId)))[0].elo;
const entry = async (matchId: string, userId: string) =>
  (
    await t.app.ctx.db
      .select({ before: matchPlayers.eloBefore, after: matchPlayers.eloAfter })
      .from(matchPlayers)
      .where(and(eq(matchPlayers.matchId, matchId), eq(matchPlayers.userId, userId)))
  )[0];
const audits = (matchId: string) =>
  t.app.ctx.db.select().from(auditLog).where(eq(auditLog.targetId, matchId)).orderBy(auditLog.seq);

async function players(n: number): Promise<TestUser[]> {
  const ps: TestUser[] = [];
  for (let i = 0; i < n; i++) ps.push(await createTestUser(t.app, { teamSpeakId: `ts-${Math.random()}` }));
  return ps;
}

/** An active match on a server with a two-map pool (even indexes team one, odd team two). */
async function activeMatch(ps: TestUser[]): Promise<string> {
  const id = await seedMatch(t.app, 'active', ps);
  await t.app.ctx.db
    .update(matches)
    .set({
      mapPool: [
        { key: 'de_dust2', name: 'Dust II' },
        { key: 'de_mirage', name: 'Mirage' },
      ],
      mapKey: 'de_dust2',
      mapName: 'Dust II',
      provider: 'recording',
      serverConnect: '10.0.0.99:27015',
      serverGotv: '10.0.0.99:27020',
      serverSecret: 'old-secret',
    })
    .where(eq(matches.id, id));
  return id;
}

/** Plays `ps` through a whole match: active, then the admin's result `winner` (Elo as normal). */
async function finished(ps: TestUser[], winner: 'teamOne' | 'teamTwo'): Promise<string> {
  const id = await activeMatch(ps);
  clock.advance(60_000);
  const score = winner === 'teamOne' ? { teamOne: 13, teamTwo: 7 } : { teamOne: 7, teamTwo: 13 };
  const res = await tool(id, 'result', { winner, score, reason: 'server crashed at the end' });
  expect(res.statusCode).toBe(200);
  return id;
}

beforeAll(async () => {
  t = await createTestApp({ clock });
  await t.listen();
  setProvider(t.app.ctx, recording);
  admin = await createTestUser(t.app, { role: 'ADMIN' });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.close();
});

describe('force a result', () => {
  it('finishes an active match with Elo once, audited with reason, before and after', async () => {
    const ps = await players(10);
    const id = await activeMatch(ps);
    const res = await tool(id, 'result', {
      winner: 'teamTwo',
      score: { teamOne: 9, teamTwo: 13 },
      reason: 'server died at 9:13',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'finished',
      winner: 'teamTwo',
      score: { teamOne: 9, teamTwo: 13 },
    });
    expect([await eloOf(ps[0].id), await eloOf(ps[1].id)]).toEqual([190, 212]);
    expect(await entry(id, ps[1].id)).toEqual({ before: 200, after: 212 });

    // Once: the match is over now, a second result is refused and changes nothing.
    const again = await tool(id, 'result', {
      winner: 'teamOne',
      score: { teamOne: 13, teamTwo: 0 },
      reason: 'twice',
    });
    expect([again.statusCode, again.json()]).toEqual([409, { errors: { msg: 'WRONG_MATCH_PHASE' } }]);
    expect([await eloOf(ps[0].id), await eloOf(ps[1].id)]).toEqual([190, 212]);

    const [audit, ...rest] = await audits(id);
    expect(rest).toEqual([]);
    expect(audit).toMatchObject({
      actorId: admin.id,
      action: 'match.result',
      reason: 'server died at 9:13',
      createdAt: clock.now(),
      before: { status: 'active', winner: null, score: { teamOne: 0, teamTwo: 0 } },
      after: { status: 'finished', winner: 'teamTwo', score: { teamOne: 9, teamTwo: 13 } },
    });
  });
});

describe('correct and void a finished match', () => {
  it('recomputes both players, their later match and their current Elo exactly; void reverts it', async () => {
    const ps = await players(18);
    const [p1, p2] = ps; // p1 on team one, p2 on team two of match A
    const a = await finished(ps.slice(0, 10), 'teamOne');
    // Match B later: p1 and p2 on team one (indexes 0 and 2), which loses.
    const b = await finished([p1, ps[10], p2, ...ps.slice(11, 18)], 'teamTwo');
    expect([await eloOf(p1.id), await eloOf(p2.id)]).toEqual([212 - 10, 190 - 10]);
    const seen: unknown[] = [];
    const socket = await connectSocket(t.url, p1.token);
    sockets.push(socket);
    socket.on('PRIVATE_ELO_CORRECTED', (payload) => seen.push(payload));

    const res = await tool(a, 'correct', {
      winner: 'teamTwo',
      score: { teamOne: 11, teamTwo: 13 },
      map: 'de_mirage',
      reason: 'the server reported the wrong side',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'finished',
      winner: 'teamTwo',
      score: { teamOne: 11, teamTwo: 13 },
      map: { key: 'de_mirage', name: 'Mirage' },
    });
    // p1: +12 became −10 in A (shift −22); p2: −10 became +12 (shift +22). B moves with them.
    expect(await entry(a, p1.id)).toEqual({ before: 200, after: 190 });
    expect(await entry(b, p1.id)).toEqual({ before: 190, after: 180 });
    expect(await eloOf(p1.id)).toBe(180);
    expect(await entry(a, p2.id)).toEqual({ before: 200, after: 212 });
    expect(await entry(b, p2.id)).toEqual({ before: 212, after: 202 });
    expect(await eloOf(p2.id)).toBe(202);
    // A player of B only is untouched.
    expect(await entry(b, ps[10].id)).toEqual({ before: 200, after: 212 });
    await expect.poll(() => seen).toEqual([{ matchId: a, oldElo: 202, newElo: 180 }]);
    const [, correction] = await audits(a);
    expect(correction).toMatchObject({
      action: 'match.correct',
      reason: 'the server reported the wrong side',
      before: { winner: 'teamOne', score: { teamOne: 13, teamTwo: 7 }, map: 'de_dust2' },
      after: { winner: 'teamTwo', score: { teamOne: 11, teamTwo: 13 }, map: 'de_mirage' },
    });

    // Refusals change nothing: the same result, a map outside the pool, a winner against the score.
    const same = await tool(a, 'correct', {
      winner: 'teamTwo',
      score: { teamOne: 11, teamTwo: 13 },
      map: 'de_mirage',
      reason: 'again',
    });
    expect([same.statusCode, same.json()]).toEqual([409, { errors: { msg: 'NOTHING_TO_CORRECT' } }]);
    const badMap = await tool(a, 'correct', {
      winner: 'teamOne',
      score: { teamOne: 13, teamTwo: 1 },
      map: 'de_nuke',
      reason: 'x',
    });
    expect([badMap.statusCode, badMap.json()]).toEqual([422, { errors: { msg: 'INVALID_MAP' } }]);
    const mismatch = await tool(a, 'correct', {
      winner: 'teamOne',
      score: { teamOne: 1, teamTwo: 13 },
      map: 'de_dust2',
      reason: 'x',
    });
    expect([mismatch.statusCode, mismatch.json()]).toEqual([422, { errors: { msg: 'RESULT_MISMATCH' } }]);
    const active = await activeMatch(await players(2));
    const notOver = await tool(active, 'correct', {
      winner: 'teamOne',
      score: { teamOne: 13, teamTwo: 1 },
      map: 'de_dust2',
      reason: 'x',
    });
    expect([notOver.statusCode, notOver.json()]).toEqual([409, { errors: { msg: 'WRONG_MATCH_PHASE' } }]);
    expect(await eloOf(p1.id)).toBe(180);
    expect((await matchRow(a)).mapKey).toBe('de_mirage');

    // Void A: its change is taken back (p1 −10 → 0, p2 +12 → 0) and B moves again.
    const voided = await tool(a, 'void', { reason: 'played with the wrong rosters' });
    expect(voided.statusCode).toBe(200);
    expect(voided.json()).toMatchObject({ status: 'cancelled', cancelReason: 'ADMIN_VOIDED' });
    expect(await entry(a, p1.id)).toEqual({ before: 200, after: 200 });
    expect(await entry(b, p1.id)).toEqual({ before: 200, after: 190 });
    expect(await entry(b, p2.id)).toEqual({ before: 200, after: 190 });
    expect([await eloOf(p1.id), await eloOf(p2.id)]).toEqual([190, 190]);
    // Voiding B too leaves everyone where they started; a voided match cannot be voided again.
    expect((await tool(b, 'void', { reason: 'also wrong' })).statusCode).toBe(200);
    expect([await eloOf(p1.id), await eloOf(p2.id), await eloOf(ps[10].id)]).toEqual([200, 200, 200]);
    const twice = await tool(b, 'void', { reason: 'again' });
    expect([twice.statusCode, twice.json()]).toEqual([409, { errors: { msg: 'WRONG_MATCH_PHASE' } }]);
    expect((await audits(a)).map((x) => x.action)).toEqual(['match.result', 'match.correct', 'match.void']);
    expect((await audits(a)).at(-1)).toMatchObject({
      reason: 'played with the wrong rosters',
      before: { status: 'finished', winner: 'teamTwo' },
      after: { status: 'cancelled', cancelReason: 'ADMIN_VOIDED' },
    });
  });
});

describe('swap a player', () => {
  it('a queued player takes the slot: roster, queue, game server and audit follow', async () => {
    const ps = await players(10);
    const id = await activeMatch(ps);
    const [sub] = await players(1);
    const socket = await connectSocket(t.url, sub.token);
    sockets.push(socket);
    expect(await socket.emitWithAck('queue-message', { event: 'join' })).toMatchObject({ ok: true });
    const roomId = await joinMatchRoom(t.app.ctx, id, ps[3].id);
    const bot = await ensureBot(t.app.ctx);
    const membership = (userId: string) =>
      chat(t.app.ctx).admin.membershipOf(bot.accessToken, roomId, matrixIdOfUser(t.app.ctx, userId));
    expect(await membership(ps[3].id)).toBe('join');

    const res = await tool(id, 'swap', { out: ps[3].id, in: sub.id, reason: 'ps3 has no PC today' });
    expect(res.statusCode).toBe(200);
    const teamTwo = res.json().teamTwo.players.map((p: { _id: string }) => p._id);
    expect(teamTwo).toContain(sub.id);
    expect(teamTwo).not.toContain(ps[3].id);
    expect(await t.app.ctx.db.select().from(queueEntries).where(eq(queueEntries.userId, sub.id))).toEqual([]);
    await expect
      .poll(() => calls.swap)
      .toContainEqual({ matchId: id, out: ps[3].id, sub: sub.id, team: 'teamTwo' });
    // The match chat room: the newcomer joins it, the player who left is out of it.
    await expect.poll(() => membership(sub.id)).toBe('join');
    await expect.poll(() => membership(ps[3].id)).toBe('leave');
    expect((await audits(id)).at(-1)).toMatchObject({
      action: 'match.swap',
      reason: 'ps3 has no PC today',
      before: { userId: ps[3].id, team: 'teamTwo' },
      after: { userId: sub.id, team: 'teamTwo' },
    });

    // Refused, nothing changed: someone not in the match, a player already in it, a finished match.
    const outsider = await tool(id, 'swap', { out: ps[3].id, in: (await players(1))[0].id, reason: 'x' });
    expect([outsider.statusCode, outsider.json()]).toEqual([422, { errors: { msg: 'PLAYER_NOT_IN_MATCH' } }]);
    const inside = await tool(id, 'swap', { out: ps[0].id, in: ps[1].id, reason: 'x' });
    expect([inside.statusCode, inside.json()]).toEqual([409, { errors: { msg: 'ALREADY_IN_MATCH' } }]);
    const done = await finished(await players(10), 'teamOne');
    const late = await tool(done, 'swap', { out: ps[0].id, in: ps[3].id, reason: 'x' });
    expect([late.statusCode, late.json()]).toEqual([409, { errors: { msg: 'WRONG_MATCH_PHASE' } }]);
    expect(await t.app.ctx.db.select().from(matchPlayers).where(eq(matchPlayers.matchId, id))).toHaveLength(
      10,
    );
  });
});

describe('swap in the draft and in a live game', () => {
  it("a captain swapped in the draft stays captain; a live player's row stays, marked replaced", async () => {
    const ps = await players(10);
    const draft = await startMatch(
      t.app,
      ps.map((p) => p.id),
    );
    const state = (await t.app.inject({ method: 'GET', url: `/api/match/${draft}` })).json();
    const captain = state.teamOne.captain._id as string;
    const [newcomer] = await players(1);
    const res = await tool(draft, 'swap', { out: captain, in: newcomer.id, reason: 'captain went offline' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'playerveto', teamOne: { captain: { _id: newcomer.id } } });

    const live = await activeMatch(await players(10));
    await t.app.ctx.db.update(matches).set({ liveAt: clock.now() }).where(eq(matches.id, live));
    const [outId] = (
      await t.app.ctx.db.select().from(matchPlayers).where(eq(matchPlayers.matchId, live))
    ).map((r) => r.userId);
    const [late] = await players(1);
    expect((await tool(live, 'swap', { out: outId, in: late.id, reason: 'left at 3:5' })).statusCode).toBe(
      200,
    );
    const [kept] = await t.app.ctx.db
      .select()
      .from(matchPlayers)
      .where(and(eq(matchPlayers.matchId, live), eq(matchPlayers.userId, outId)));
    expect(kept.replacedAt).toBe(clock.now());
    // Replaced: no longer swappable out.
    const again = await tool(live, 'swap', { out: outId, in: (await players(1))[0].id, reason: 'x' });
    expect([again.statusCode, again.json()]).toEqual([422, { errors: { msg: 'PLAYER_NOT_IN_MATCH' } }]);
  });
});

describe('move a match', () => {
  it('restarts an active match on another server: progress reset, new secret, old server vacated', async () => {
    const ps = await players(10);
    const id = await activeMatch(ps);
    await t.app.ctx.db
      .update(matches)
      .set({ liveAt: clock.now(), round: 3, scoreOne: 2, scoreTwo: 1 })
      .where(eq(matches.id, id));
    await t.app.ctx.db
      .insert(matchRounds)
      .values({ matchId: id, round: 1, scoreOne: 1, scoreTwo: 0, players: [], createdAt: clock.now() });
    await t.app.ctx.db.update(matchPlayers).set({ kills: 4 }).where(eq(matchPlayers.matchId, id));
    // A substitute offer runs for a no-show of the old game: it closes with the move.
    await t.app.ctx.db
      .insert(matchEvents)
      .values({ matchId: id, eventKey: `${NO_SHOW_KEY}${ps[9].id}`, receivedAt: clock.now() });
    // The old server's live deadline ended when the game went live.
    const liveRow = { id: liveJob.id({ matchId: id }), kind: liveJob.kind, key: id };
    await t.app.ctx.db.insert(jobs).values({ ...liveRow, dueAt: clock.now(), firedAt: clock.now() });
    const watcher = await connectSocket(t.url, (await players(1))[0].token);
    sockets.push(watcher);
    const closed: unknown[] = [];
    watcher.on('PUBLIC_SUBSTITUTE_CLOSED', (payload) => closed.push(payload));

    const res = await tool(id, 'move', { reason: 'server lags' });
    expect(res.statusCode).toBe(200);
    const n = calls.allocate.length;
    expect(res.json()).toMatchObject({ status: 'active', score: { teamOne: 0, teamTwo: 0 } });
    // The admin is no player of the match: GOTV only.
    expect(res.json().server).toEqual({ gotv: `10.0.0.${n}:27020` });
    expect(calls.vacate).toContain(id);
    expect(calls.allocate.at(-1)).toMatchObject({ matchId: id, exclude: `10.0.0.${n - 1}:27015` });
    // The new server's live deadline starts over: pending, MATCH_LIVE_TIMEOUT_MS from the move.
    const [live] = await t.app.ctx.db.select().from(jobs).where(eq(jobs.id, liveRow.id));
    expect(live).toMatchObject({
      dueAt: clock.now() + t.app.ctx.config.MATCH_LIVE_TIMEOUT_MS,
      firedAt: null,
    });
    const row = await matchRow(id);
    expect([row.liveAt, row.round, row.serverSecret === 'old-secret']).toEqual([null, 0, false]);
    expect(await t.app.ctx.db.select().from(matchRounds).where(eq(matchRounds.matchId, id))).toEqual([]);
    expect(await t.app.ctx.db.select().from(matchEvents).where(eq(matchEvents.matchId, id))).toEqual([]);
    await expect.poll(() => closed).toEqual([{ matchId: id }]);
    const kills = await t.app.ctx.db
      .select({ k: matchPlayers.kills })
      .from(matchPlayers)
      .where(eq(matchPlayers.matchId, id));
    expect(kills.every((x) => x.k === 0)).toBe(true);
    expect((await audits(id)).at(-1)).toMatchObject({
      action: 'match.move',
      reason: 'server lags',
      before: { server: '10.0.0.99:27020', score: { teamOne: 2, teamTwo: 1 } },
      after: { server: `10.0.0.${n}:27020` },
    });

    // No free server: refused, the match stays where it was.
    serverFree = false;
    const full = await tool(id, 'move', { reason: 'again' });
    serverFree = true;
    expect([full.statusCode, full.json()]).toEqual([409, { errors: { msg: 'NO_FREE_SERVER' } }]);
    expect((await matchRow(id)).serverGotv).toBe(`10.0.0.${n}:27020`);
    const done = await finished(await players(10), 'teamOne');
    const late = await tool(done, 'move', { reason: 'x' });
    expect([late.statusCode, late.json()]).toEqual([409, { errors: { msg: 'WRONG_MATCH_PHASE' } }]);
  });
});

describe('authorization and input', () => {
  it('players get 403, bad input a key; nothing changes and nothing is audited', async () => {
    const ps = await players(10);
    const done = await finished(ps, 'teamOne');
    const active = await activeMatch(await players(10));
    const asPlayer = [
      [active, 'move', { reason: 'x' }],
      [active, 'swap', { out: ps[0].id, in: ps[1].id, reason: 'x' }],
      [active, 'result', { winner: 'teamOne', score: { teamOne: 13, teamTwo: 0 }, reason: 'x' }],
      [
        done,
        'correct',
        { winner: 'teamTwo', score: { teamOne: 0, teamTwo: 13 }, map: 'de_dust2', reason: 'x' },
      ],
      [done, 'void', { reason: 'x' }],
    ] as const;
    for (const [id, path, body] of asPlayer) {
      const res = await tool(id, path, body, ps[0].token);
      expect([path, res.statusCode, res.json()]).toEqual([path, 403, { errors: { msg: 'UNAUTHORIZED' } }]);
    }
    const bad = [
      [done, 'void', {}, 'MISSING'],
      [done, 'void', { reason: '   ' }, 'MISSING'],
      [
        active,
        'result',
        { winner: 'teamOne', score: { teamOne: 5, teamTwo: 5 }, reason: 'x' },
        'RESULT_MISMATCH',
      ],
      [
        active,
        'result',
        { winner: 'draw', score: { teamOne: -1, teamTwo: -1 }, reason: 'x' },
        'INVALID_INPUT',
      ],
      [active, 'swap', { out: ps[0].id, in: ps[0].id, reason: 'x' }, 'INVALID_INPUT'],
      [active, 'swap', { out: 'nope', in: ps[0].id, reason: 'x' }, 'ID_MALFORMED'],
      ['nope', 'void', { reason: 'x' }, 'ID_MALFORMED'],
    ] as const;
    for (const [id, path, body, key] of bad) {
      const res = await tool(id, path, body);
      expect([path, key, res.statusCode, res.json()]).toEqual([path, key, 422, { errors: { msg: key } }]);
    }
    const unknown = await tool('7d1c1f2e-9a0b-4c5d-8e6f-0a1b2c3d4e5f', 'void', { reason: 'x' });
    expect([unknown.statusCode, unknown.json()]).toEqual([404, { errors: { msg: 'NOT_FOUND' } }]);
    expect([(await matchRow(done)).status, (await matchRow(active)).status]).toEqual(['finished', 'active']);
    expect(await eloOf(ps[0].id)).toBe(212);
    expect((await audits(done)).map((x) => x.action)).toEqual(['match.result']);
    expect(await audits(active)).toEqual([]);
  });
});
