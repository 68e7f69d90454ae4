/**
 * Accept → match room → game → result, with real socket clients against the real app (the queue
 * and its accept phase alone: queue/queue.test.ts).
 * Deadlines run on a manual clock: the test moves time and lets the scheduler fire due jobs.
 * Every test gets a fresh app, database and clock, and the match-room tests bring their match
 * to the phase they need themselves (`matchInPhase`), so each runs alone or in any order.
 */
import type { MatchState } from '@openpug/shared';
import { and, eq, inArray, ne } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  createTestUser,
  manualClock,
  nextEvent,
  startMatch,
  type TestApp,
} from '../../../test/helpers';
import {
  ack,
  disconnect,
  got,
  last,
  QUEUE_TEST_ENV,
  queue,
  type SocketPlayer,
  socketPlayers,
} from '../../../test/socket-players';
import { users } from '../../db/schema';
import { jobs } from '../../jobs/schema';
import type { GameServerProvider } from '../gameservers/provider';
import { allocateJob, setProvider } from '../gameservers/service';
import { SimulatorProvider, simJob } from '../gameservers/simulator';
import { queueEntries } from '../queue/schema';
import { acceptJob } from '../queue/service';
import { fairestPick } from './fairness';
import { maps, matches, matchPlayers, matchRounds } from './schema';
import { banJob, liveJob, pickJob, staleJob } from './service';

const MATCH_JOB_KINDS = [
  acceptJob.kind,
  pickJob.kind,
  banJob.kind,
  allocateJob.kind,
  liveJob.kind,
  staleJob.kind,
  simJob.kind,
];

const clock = manualClock();
let t: TestApp;
/** Every client of the running test, disconnected after it. */
const { player, tenInAcceptPhase, made: clients } = socketPlayers(() => t);
const advance = async (ms: number) => {
  clock.advance(ms);
  await t.app.ctx.jobs.runDue();
};
const queueSize = async () => (await t.app.ctx.db.select().from(queueEntries)).length;
const matchRow = async (id: string) =>
  (await t.app.ctx.db.select().from(matches).where(eq(matches.id, id)))[0];
const state = async (c: SocketPlayer, matchId: string) =>
  (await ack(c, 'match-message', { event: 'get-state', data: { matchId } })).data as MatchState;

async function allAccept(ps: SocketPlayer[]): Promise<string> {
  for (const p of ps) expect((await queue(p, 'ready')).ok).toBe(true);
  for (const p of ps) await expect.poll(() => got(p, 'PRIVATE_MATCH_START').length).toBe(1);
  return last(ps[0], 'PRIVATE_MATCH_START').matchId as string;
}

const CLOCK_START = clock.now();

beforeEach(async () => {
  clock.set(CLOCK_START);
  t = await createTestApp({
    clock,
    env: QUEUE_TEST_ENV,
  });
  await t.listen();
});
afterEach(async () => {
  disconnect(clients.splice(0));
  await t.close();
});

const PHASES = [
  'playerveto', // ten accepted; captains chosen, team one picks first
  'teamTwoPicks', // team one's captain has picked one player; team two is on turn
  'mapveto', // the remaining picks went by timeout
  'active', // every map but one banned by hand; the allocation is due but has not run
  'allocated', // the server is allocated and announced
  'finished', // the simulator played the match to its result
] as const;
type Phase = (typeof PHASES)[number];

interface Room {
  ps: SocketPlayer[];
  /** Joined the room, like the ten, right after the match started. */
  spectator: SocketPlayer;
  matchId: string;
  /** Each player's Elo once the match started. */
  eloBefore: Map<string, number>;
}

/**
 * A new match of ten online players, brought to `phase` the way players and deadlines do. It
 * starts as an accepted queue starts it (`startMatch`); the first test covers the queue's part.
 */
async function matchInPhase(phase: Phase): Promise<Room> {
  const reached = (p: Phase) => PHASES.indexOf(phase) >= PHASES.indexOf(p);
  const ps: SocketPlayer[] = [];
  for (let i = 0; i < 10; i++) ps.push(await player());
  const matchId = await startMatch(
    t.app,
    ps.map((p) => p.user.id),
  );
  const eloBefore = new Map<string, number>();
  for (const p of ps) {
    const [row] = await t.app.ctx.db.select().from(users).where(eq(users.id, p.user.id));
    eloBefore.set(p.user.id, row.elo);
  }
  const spectator = await player();
  for (const c of [...ps, spectator]) await ack(c, 'join-match', { matchId });
  const by = (id: string) => ps.find((p) => p.user.id === id) as SocketPlayer;
  if (reached('teamTwoPicks')) {
    const s = await state(spectator, matchId);
    const picked = await ack(by(s.teamOne.captain._id), 'match-message', {
      event: 'pick-player',
      data: { matchId, pickedId: s.pool[0]._id },
    });
    expect(picked.ok).toBe(true);
    await expect.poll(() => got(spectator, 'MATCH_PICK_PLAYER').length).toBe(1);
  }
  if (reached('mapveto')) {
    for (let i = 0; i < 8 && (await state(spectator, matchId)).status === 'playerveto'; i++)
      await advance(30_000);
    await expect.poll(() => last(spectator, 'MATCH_CHANGE_STATUS')).toEqual({ matchId, status: 'mapveto' });
  }
  if (reached('active')) {
    for (
      let cur = await state(spectator, matchId);
      cur.status === 'mapveto';
      cur = await state(spectator, matchId)
    ) {
      const banned = new Set(cur.mapVeto.bans.map((b) => b.mapKey));
      const free = cur.mapVeto.pool.filter((m) => !banned.has(m.key));
      const captain = by(cur[cur.turn as 'teamOne' | 'teamTwo'].captain._id);
      const ban = await ack(captain, 'match-message', {
        event: 'ban-map',
        data: { matchId, mapKey: free[0].key },
      });
      expect(ban.ok).toBe(true);
    }
    await expect.poll(() => got(spectator, 'MATCH_SET_MAP').length).toBe(1);
  }
  if (reached('allocated')) {
    await advance(0);
    await expect.poll(() => got(spectator, 'MATCH_SERVER_AVAILABLE').length).toBe(1);
  }
  if (reached('finished')) {
    for (let i = 0; i < 60 && (await matchRow(matchId)).status === 'active'; i++) await advance(1_000);
    expect((await matchRow(matchId)).status).toBe('finished');
  }
  return { ps, spectator, matchId, eloBefore };
}

// Each test plays its match from the start up to its phase: more than the default 30 s on a busy machine.
describe('match room', { timeout: 120_000 }, () => {
  it('all ten accept → PRIVATE_QUEUE_MATCH, a match in playerveto with the right captains', async () => {
    const ps = await tenInAcceptPhase();
    const matchId = await allAccept(ps);
    for (const p of ps) expect(got(p, 'PRIVATE_QUEUE_MATCH')).toEqual([{ matchId }]);
    expect(await queueSize()).toBe(0);
    const s = await state(ps[0], matchId);
    const elos = ps.map(
      (p) => s.pool.concat(s.teamOne.players, s.teamTwo.players).find((x) => x._id === p.user.id)?.elo,
    );
    const sorted = [...(elos as number[])].sort((a, b) => b - a);
    expect(s.status).toBe('playerveto');
    expect(s.teamTwo.captain.elo).toBe(sorted[0]);
    expect(s.teamOne.captain.elo).toBe(sorted[1]);
    expect(s.turn).toBe('teamOne');
    expect(s.deadline).toBe(clock.now() + 30000);
    expect(s.pool).toHaveLength(8);
    expect(s.mapVeto.pool.map((m) => m.key)).toEqual([
      'de_ancient',
      'de_anubis',
      'de_dust2',
      'de_inferno',
      'de_mirage',
      'de_nuke',
      'de_train',
    ]);
    // A player of a live match cannot queue.
    expect(await queue(ps[0], 'join')).toEqual({ ok: false, msg: 'ALREADY_IN_MATCH' });
  });

  it('refuses out-of-turn, spectator, picked-player and invalid picks; nothing changes', async () => {
    const { ps, spectator, matchId } = await matchInPhase('playerveto');
    const s = await state(spectator, matchId);
    const by = (id: string) => ps.find((p) => p.user.id === id) as SocketPlayer;
    const capOne = by(s.teamOne.captain._id);
    const capTwo = by(s.teamTwo.captain._id);
    const poolPlayer = by(s.pool[0]._id);
    const pick = (c: SocketPlayer, pickedId: string) =>
      ack(c, 'match-message', { event: 'pick-player', data: { matchId, pickedId } });
    expect(await pick(capTwo, s.pool[0]._id)).toEqual({ ok: false, msg: 'NOT_YOUR_TURN' });
    expect(await pick(spectator, s.pool[0]._id)).toEqual({ ok: false, msg: 'NOT_A_PARTICIPANT' });
    expect(await pick(poolPlayer, s.pool[1]._id)).toEqual({ ok: false, msg: 'NOT_YOUR_TURN' });
    expect(await pick(capOne, capTwo.user.id)).toEqual({ ok: false, msg: 'INVALID_PICK' });
    expect(await pick(capOne, 'nobody')).toEqual({ ok: false, msg: 'INVALID_PICK' });
    expect(
      await ack(capOne, 'match-message', { event: 'ban-map', data: { matchId, mapKey: 'de_nuke' } }),
    ).toEqual({
      ok: false,
      msg: 'WRONG_MATCH_PHASE',
    });
    expect(await state(spectator, matchId)).toEqual(s);

    // Team one picks; the countdown moves on and team two is on turn.
    const first = s.pool[3];
    expect(await pick(capOne, first._id)).toEqual({ ok: true, data: { done: true } });
    await expect.poll(() => got(spectator, 'MATCH_PICK_PLAYER').length).toBe(1);
    expect(last(spectator, 'MATCH_PICK_PLAYER')).toMatchObject({ matchId, team: 'teamOne', auto: false });
    expect(last(spectator, 'MATCH_SET_COUNTDOWN')).toEqual({
      matchId,
      deadline: clock.now() + 30000,
      turn: 'teamTwo',
    });
    const picked = by(first._id);
    expect(await pick(picked, s.pool[0]._id)).toEqual({ ok: false, msg: 'NOT_YOUR_TURN' });
    expect(await pick(capTwo, first._id)).toEqual({ ok: false, msg: 'INVALID_PICK' });
  });

  it('a pick timeout gives the player who keeps the teams fairest to the captain on turn; the last pick is automatic', async () => {
    const { spectator, matchId } = await matchInPhase('teamTwoPicks');
    const before = await state(spectator, matchId);
    const best = fairestPick(
      before.teamTwo.players.map((p) => p.elo),
      before.teamOne.players.map((p) => p.elo),
      before.pool,
    );
    await advance(30_000);
    const after = await state(spectator, matchId);
    expect(after.teamTwo.players.map((p) => p._id)).toContain(best?._id);
    expect(last(spectator, 'MATCH_PICK_PLAYER')).toMatchObject({ team: 'teamTwo', auto: true });
    // The remaining picks by timeout, in the pick order ABBAABBA.
    for (let i = 0; i < 5; i++) await advance(30_000);
    const s = await state(spectator, matchId);
    expect(s.status).toBe('mapveto');
    expect(s.pool).toHaveLength(0);
    expect(s.teamOne.players).toHaveLength(5);
    expect(s.teamTwo.players).toHaveLength(5);
    expect(s.turn).toBe('teamOne');
    await expect.poll(() => last(spectator, 'MATCH_CHANGE_STATUS')).toEqual({ matchId, status: 'mapveto' });
  });

  it('map veto: only the captain on turn bans; banned and unknown maps are refused; a timeout bans at random', async () => {
    const { ps, spectator, matchId } = await matchInPhase('mapveto');
    const s = await state(spectator, matchId);
    const by = (id: string) => ps.find((p) => p.user.id === id) as SocketPlayer;
    const capOne = by(s.teamOne.captain._id);
    const capTwo = by(s.teamTwo.captain._id);
    const ban = (c: SocketPlayer, mapKey: string) =>
      ack(c, 'match-message', { event: 'ban-map', data: { matchId, mapKey } });
    expect(await ban(capTwo, 'de_nuke')).toEqual({ ok: false, msg: 'NOT_YOUR_TURN' });
    expect(await ban(spectator, 'de_nuke')).toEqual({ ok: false, msg: 'NOT_A_PARTICIPANT' });
    expect(await ban(capOne, 'de_cache')).toEqual({ ok: false, msg: 'INVALID_MAP' });
    expect((await ban(capOne, 'de_nuke')).ok).toBe(true);
    expect(await ban(capTwo, 'de_nuke')).toEqual({ ok: false, msg: 'MAP_ALREADY_BANNED' });
    const mid = await state(spectator, matchId);
    expect(mid.mapVeto.bans).toEqual([{ mapKey: 'de_nuke', team: 'teamOne' }]);
    expect(mid.turn).toBe('teamTwo');
    await advance(30_000); // team two's ban times out: a random map goes
    const afterTimeout = await state(spectator, matchId);
    expect(afterTimeout.mapVeto.bans).toHaveLength(2);
    expect(afterTimeout.mapVeto.bans[1].team).toBe('teamTwo');
    expect(afterTimeout.mapVeto.bans[1].mapKey).not.toBe('de_nuke');
    // The rest by hand, alternating, until one map is left.
    for (let i = 2; i < 6; i++) {
      const cur = await state(spectator, matchId);
      const banned = new Set(cur.mapVeto.bans.map((b) => b.mapKey));
      const free = cur.mapVeto.pool.filter((m) => !banned.has(m.key));
      expect((await ban(cur.turn === 'teamOne' ? capOne : capTwo, free[0].key)).ok).toBe(true);
    }
    await expect.poll(() => got(spectator, 'MATCH_SET_MAP').length).toBe(1);
    const final = await state(spectator, matchId);
    expect(final.status).toBe('active');
    expect(final.map).toEqual(last(spectator, 'MATCH_SET_MAP').map);
    expect(final.mapVeto.bans).toHaveLength(6);
  });

  it('the server is allocated: players see connect, spectators only GOTV', async () => {
    const { ps, spectator, matchId } = await matchInPhase('active');
    await advance(0);
    await expect.poll(() => got(spectator, 'MATCH_SERVER_AVAILABLE').length).toBe(1);
    expect(last(spectator, 'MATCH_SERVER_AVAILABLE').connect).toBeUndefined();
    expect(last(spectator, 'MATCH_SERVER_AVAILABLE').gotv).toMatch(/:\d+$/);
    await expect.poll(() => last(ps[0], 'MATCH_SERVER_AVAILABLE')?.connect).toMatch(/:\d+$/);
    expect((await state(spectator, matchId)).server).toEqual({ gotv: expect.any(String) });
    expect((await state(ps[0], matchId)).server).toEqual({
      gotv: expect.any(String),
      connect: expect.any(String),
    });
    const rest = await t.app.inject({ method: 'GET', url: `/api/match/${matchId}` });
    expect(rest.json().server.connect).toBeUndefined();
    const mine = await t.app.inject({
      method: 'GET',
      url: `/api/match/${matchId}`,
      headers: bearer(ps[0].user.token),
    });
    expect(mine.json().server.connect).toMatch(/:\d+$/);
  });

  it('the simulator plays MR12 to the end; every player gets the right Elo and result', async () => {
    const { ps, spectator, matchId, eloBefore } = await matchInPhase('allocated');
    for (let i = 0; i < 60 && (await matchRow(matchId)).status === 'active'; i++) await advance(1_000);
    const m = await matchRow(matchId);
    expect(m.status).toBe('finished');
    const hi = Math.max(m.scoreOne, m.scoreTwo);
    expect(hi).toBeGreaterThanOrEqual(13);
    expect(m.winner).toBe(m.scoreOne > m.scoreTwo ? 'teamOne' : 'teamTwo');
    const rounds = await t.app.ctx.db.select().from(matchRounds).where(eq(matchRounds.matchId, matchId));
    expect(rounds.map((r) => r.round).sort((a, b) => a - b)).toEqual(
      Array.from({ length: m.scoreOne + m.scoreTwo }, (_, i) => i + 1),
    );
    const players = await t.app.ctx.db.select().from(matchPlayers).where(eq(matchPlayers.matchId, matchId));
    const killsPerRound = rounds.reduce((s, r) => s + r.players.reduce((a, p) => a + p.kills, 0), 0);
    expect(players.reduce((s, p) => s + p.kills, 0)).toBe(killsPerRound);
    for (const p of ps) {
      const row = players.find((x) => x.userId === p.user.id);
      const won = row?.team === m.winner;
      const before = eloBefore.get(p.user.id) as number;
      const expected = before + (won ? 12 : -10);
      const [u] = await t.app.ctx.db.select().from(users).where(eq(users.id, p.user.id));
      expect(u.elo).toBe(expected);
      expect(row).toMatchObject({ eloBefore: before, eloAfter: expected });
      await expect.poll(() => got(p, 'PRIVATE_MATCH_RESULT').length).toBe(1);
      expect(last(p, 'PRIVATE_MATCH_RESULT')).toEqual({
        victory: won,
        oldElo: before,
        newElo: expected,
        matchId,
      });
      // The own profile follows: Elo and rank for the player's card.
      await expect
        .poll(() => got(p, 'privateUserUpdate').find((u) => u.stats?.elo === expected))
        .toMatchObject({ stats: { elo: expected }, rank: expect.any(Number) });
    }
    expect(got(spectator, 'MATCH_SCORE_UPDATE').length).toBeGreaterThanOrEqual(13);
    expect(last(spectator, 'MATCH_CHANGE_STATUS')).toEqual({ matchId, status: 'finished' });
    // Nothing left to fire, and the result is applied only once.
    await advance(60_000);
    const [again] = await t.app.ctx.db.select().from(users).where(eq(users.id, ps[0].user.id));
    expect(got(ps[0], 'PRIVATE_MATCH_RESULT')).toHaveLength(1);
    expect(again.elo).toBe(
      eloBefore.get(ps[0].user.id)! + (last(ps[0], 'PRIVATE_MATCH_RESULT').victory ? 12 : -10),
    );
    // Every match, accept and simulator deadline has fired (other modules' jobs, such as reconnect
    // grace periods of closed test sockets or the drop engine, may still wait).
    const pending = (await t.app.ctx.db.select().from(jobs)).filter(
      (j) => j.firedAt === null && MATCH_JOB_KINDS.includes(j.kind),
    );
    expect(pending).toHaveLength(0);
    // The simulator went live in time and the result called the live and stale deadlines off:
    // neither is left (a fired or cancelled job leaves no row), and the match finished rather than
    // ending on either deadline.
    const jobOf = async (kind: string) =>
      (
        await t.app.ctx.db
          .select()
          .from(jobs)
          .where(eq(jobs.id, `${kind}:${matchId}`))
      )[0];
    expect(await jobOf(liveJob.kind)).toBeUndefined();
    expect(await jobOf(staleJob.kind)).toBeUndefined();
  });

  it('a simulated match an admin moves mid-game starts over on the new server and plays to its result', async () => {
    const { spectator, matchId } = await matchInPhase('allocated');
    // A few rounds on the first server: the simulator's steps 0.. have fired.
    for (let i = 0; i < 8 && (await matchRow(matchId)).round < 3; i++) await advance(1_000);
    expect((await matchRow(matchId)).round).toBeGreaterThanOrEqual(3);
    const admin = await createTestUser(t.app, { role: 'ADMIN' });
    const moved = await t.app.inject({
      method: 'POST',
      url: `/api/admin/matches/${matchId}/move`,
      headers: bearer(admin.token),
      payload: { reason: 'server lags' },
    });
    expect(moved.statusCode).toBe(200);
    expect((await matchRow(matchId)).round).toBe(0);
    // The same step keys as on the first server are booked again and fire: the old server's done
    // steps left no rows to make them a no-op (jobs/scheduler.ts).
    for (let i = 0; i < 60 && (await matchRow(matchId)).status === 'active'; i++) await advance(1_000);
    const m = await matchRow(matchId);
    expect([m.status, m.cancelReason]).toEqual(['finished', null]);
    expect(Math.max(m.scoreOne, m.scoreTwo)).toBeGreaterThanOrEqual(13);
    await expect.poll(() => last(spectator, 'MATCH_CHANGE_STATUS')).toEqual({ matchId, status: 'finished' });
  });

  it('lists matches and a player history; the card figures come from stats', async () => {
    const { ps, matchId } = await matchInPhase('finished');
    const list = await t.app.inject({ method: 'GET', url: '/api/match?status=finished' });
    expect(list.json()).toMatchObject({ totalDocs: 1, docs: [{ _id: matchId, status: 'finished' }] });
    const live = await t.app.inject({ method: 'GET', url: '/api/match?status=live' });
    expect(live.json()).toEqual({ docs: [], totalDocs: 0 });
    const mine = await t.app.inject({
      method: 'GET',
      url: `/api/match/user/${ps[0].user.id}/?page=1&limit=5`,
    });
    const doc = mine.json().docs[0];
    expect(mine.json().totalDocs).toBe(1);
    // The lists' teams (their roster read in one query: lists.ts) are the match room's.
    const room = await state(ps[0], matchId);
    const teams = (d: MatchState) => ({ teamOne: d.teamOne, teamTwo: d.teamTwo });
    expect(teams(doc)).toEqual(teams(room));
    expect(teams(list.json().docs[0])).toEqual(teams(room));
    expect(room.teamOne.players).toHaveLength(5);
    // A page past the end still counts them.
    const past = await t.app.inject({
      method: 'GET',
      url: `/api/match/user/${ps[0].user.id}/?page=3&limit=5`,
    });
    expect(past.json()).toEqual({ docs: [], totalDocs: 1 });
    expect(doc.player.eloAfter - doc.player.eloBefore).toBe(doc.player.victory ? 12 : -10);
    expect((await t.app.inject({ method: 'GET', url: '/api/match?limit=1000' })).statusCode).toBe(422);
    expect((await t.app.inject({ method: 'GET', url: '/api/match/nope' })).json()).toEqual({
      errors: { msg: 'NOT_FOUND' },
    });
    const { playerSummary, recentResults } = await import('./stats');
    const summary = await playerSummary(t.app.ctx, ps[0].user.id);
    expect(summary).toMatchObject({ matches: 1, wins: doc.player.victory ? 1 : 0, kills: doc.player.kills });
    expect(await recentResults(t.app.ctx, ps[0].user.id)).toEqual([doc.player.victory ? 'W' : 'L']);
    // Players are free to queue again.
    expect((await queue(ps[0], 'join')).ok).toBe(true);
    await queue(ps[0], 'leave');
  });

  it('help reaches every online admin; spectators cannot send it', async () => {
    const { ps, spectator, matchId } = await matchInPhase('finished');
    const admin = await player({ role: 'ADMIN' });
    expect(await ack(spectator, 'match-message', { event: 'help', data: { matchId, msg: 'hi' } })).toEqual({
      ok: false,
      msg: 'NOT_A_PARTICIPANT',
    });
    expect(await ack(ps[1], 'match-message', { event: 'help', data: { matchId, msg: '  ' } })).toEqual({
      ok: false,
      msg: 'IS_EMPTY',
    });
    const help = nextEvent(admin.socket, 'ADMIN_HELP');
    expect(
      (await ack(ps[1], 'match-message', { event: 'help', data: { matchId, msg: 'server lags' } })).ok,
    ).toBe(true);
    expect(await help).toEqual({ username: ps[1].user.name, msg: 'server lags', matchId });
    // Once a minute per player and match: the admins are not flooded with toasts.
    expect(await ack(ps[1], 'match-message', { event: 'help', data: { matchId, msg: 'again' } })).toEqual({
      ok: false,
      msg: 'TOO_MANY_REQUESTS',
    });
    expect((await ack(ps[2], 'match-message', { event: 'help', data: { matchId, msg: 'me too' } })).ok).toBe(
      true,
    );
    clock.advance(60_000);
    expect((await ack(ps[1], 'match-message', { event: 'help', data: { matchId, msg: 'still' } })).ok).toBe(
      true,
    );
    disconnect([...ps, spectator, admin]);
  });
});

describe('one-map pool', () => {
  it('skips the veto; every picked player, the last ones too, learns their team', async () => {
    const others = await t.app.ctx.db
      .select({ key: maps.key })
      .from(maps)
      .where(and(eq(maps.active, true), ne(maps.key, 'de_dust2')));
    const otherKeys = others.map((m) => m.key);
    if (otherKeys.length)
      await t.app.ctx.db.update(maps).set({ active: false }).where(inArray(maps.key, otherKeys));
    try {
      const players = await tenInAcceptPhase();
      const id = await allAccept(players);
      for (let i = 0; i < 7; i++) await advance(30_000);
      const s = await state(players[0], id);
      expect(s.status).toBe('active');
      expect(s.map?.key).toBe('de_dust2');
      for (const team of ['teamOne', 'teamTwo'] as const)
        for (const p of s[team].players.filter((x) => x._id !== s[team].captain._id)) {
          const client = players.find((c) => c.user.id === p._id) as SocketPlayer;
          await expect
            .poll(() =>
              got(client, 'privateUserUpdate').some((u) => u.status?.teamOne === (team === 'teamOne')),
            )
            .toBe(true);
        }
      disconnect(players);
    } finally {
      if (otherKeys.length)
        await t.app.ctx.db.update(maps).set({ active: true }).where(inArray(maps.key, otherKeys));
    }
  });
});

describe('game server webhook', () => {
  it('ingests MatchZy events with the per-match secret; duplicates and other matches change nothing', async () => {
    const fake: GameServerProvider = {
      name: 'fake',
      allocate: async () => ({ connect: '10.0.0.1:27015', gotv: '10.0.0.1:27020' }),
      release: async () => {},
    };
    setProvider(t.app.ctx, fake);
    const ps = await tenInAcceptPhase();
    const matchId = await allAccept(ps);
    for (let i = 0; i < 20 && (await matchRow(matchId)).status !== 'active'; i++) await advance(30_000);
    const m = await matchRow(matchId);
    expect(m.status).toBe('active');
    expect(m.serverConnect).toBe('10.0.0.1:27015');
    const players = await t.app.ctx.db.select().from(matchPlayers).where(eq(matchPlayers.matchId, matchId));
    const post = (body: unknown, secret = m.serverSecret as string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/gameservers/events/${matchId}`,
        headers: { authorization: `Bearer ${secret}` },
        payload: body as object,
      });
    const line = (team: string, kills: number) => ({
      score: 0,
      players: players
        .filter((p) => p.team === team)
        .map((p) => ({
          steamid: p.userId,
          name: p.name,
          stats: { kills, deaths: 1, assists: 0, damage: 100 * kills, headshot_kills: kills },
        })),
    });
    const round1 = {
      event: 'round_end',
      matchid: matchId,
      map_number: 0,
      round_number: 1,
      winner: { side: 'ct', team: 'team1' },
      team1: { ...line('teamOne', 1), score: 1 },
      team2: { ...line('teamTwo', 0), score: 0 },
    };
    expect((await post(round1, 'wrong')).json()).toEqual({ errors: { msg: 'UNAUTHORIZED' } });
    expect((await post({ event: 'going_live', matchid: matchId, map_number: 0 })).json()).toEqual({
      accepted: true,
      event: 'going_live',
    });
    expect((await post(round1)).json()).toEqual({ accepted: true, event: 'round_end' });
    expect((await post(round1)).json()).toEqual({ accepted: false, reason: 'duplicate' });
    expect((await post({ ...round1, matchid: 'another-match', round_number: 2 })).json()).toEqual({
      accepted: false,
      reason: 'other-match',
    });
    expect((await post({ event: 'player_death', matchid: matchId })).json()).toEqual({
      accepted: false,
      reason: 'unhandled',
    });
    expect((await post({ event: 'round_end', matchid: matchId, round_number: 'x' })).statusCode).toBe(422);
    let row = await matchRow(matchId);
    expect([row.round, row.scoreOne, row.scoreTwo]).toEqual([1, 1, 0]);
    const after1 = await t.app.ctx.db.select().from(matchPlayers).where(eq(matchPlayers.matchId, matchId));
    expect(after1.filter((p) => p.team === 'teamOne').every((p) => p.kills === 1 && p.headshots === 1)).toBe(
      true,
    );
    expect(
      await t.app.ctx.db.select().from(matchRounds).where(eq(matchRounds.matchId, matchId)),
    ).toHaveLength(1);

    const result = {
      event: 'map_result',
      matchid: matchId,
      map_number: 0,
      team1: { score: 13 },
      team2: { score: 7 },
      winner: { side: 'ct', team: 'team1' },
    };
    expect((await post(result)).json()).toEqual({ accepted: true, event: 'map_result' });
    expect((await post({ event: 'series_end', matchid: matchId, winner: { team: 'team1' } })).json()).toEqual(
      {
        accepted: false,
        reason: 'not-live',
      },
    );
    row = await matchRow(matchId);
    expect([row.status, row.winner, row.scoreOne, row.scoreTwo]).toEqual(['finished', 'teamOne', 13, 7]);
    const done = await t.app.ctx.db.select().from(matchPlayers).where(eq(matchPlayers.matchId, matchId));
    for (const p of done) expect(p.eloAfter! - p.eloBefore!).toBe(p.team === 'teamOne' ? 12 : -10);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/gameservers/events/nope', payload: { event: 'x' } }))
        .statusCode,
    ).toBe(404);
    setProvider(t.app.ctx, new SimulatorProvider(t.app.ctx));
    disconnect(ps);
  });
});
