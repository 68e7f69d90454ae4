/**
 * Robustness: the real server process is SIGKILLed with players only queued, during an accept
 * phase, a pick turn, the map veto, a live match and after its result, and restarted on the same
 * database each time (PGlite in the data directory, or PostgreSQL in the server-pg project).
 * Every deadline fires once and correctly after the restart, no match or result is lost, and
 * reconnecting clients get the current state with get-state.
 */
import type { MatchState, QueueState } from '@openpug/shared';
import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { jobs, matches, matchPlayers, matchRounds, queueEntries, users } from '../src/db/schema';
import { allocateJob } from '../src/modules/gameservers/service';
import { simJob } from '../src/modules/gameservers/simulator';
import { fairestPick } from '../src/modules/matches/fairness';
import { banJob, pickJob } from '../src/modules/matches/service';
import { acceptJob } from '../src/modules/queue/service';
import { connectSocket, usingPostgres } from './helpers';
import { type SeededPlayer, spawnedServer } from './spawned';

const MATCH_JOB_KINDS = [acceptJob.kind, pickJob.kind, banJob.kind, allocateJob.kind, simJob.kind];

const TIMEOUT = 5_000;
// The closed tab's grace, which after a restart every player queued outside an accept phase gets
// (docs/contract.md §4 Presence). Long enough for the returning sockets of a loaded machine.
const GRACE_MS = 3_000;

describe(`restart robustness on ${usingPostgres() ? 'PostgreSQL' : 'PGlite'}`, () => {
  it('survives SIGKILL with players queued, in the accept phase, a pick turn, the map veto and a live match', async () => {
    // Thirteen players with distinct Elo, seeded into the data directory before the first start.
    const server = await spawnedServer(13, {
      ACCEPT_TIMEOUT_MS: String(TIMEOUT + 2_000),
      PICK_TIMEOUT_MS: String(TIMEOUT),
      BAN_TIMEOUT_MS: String(TIMEOUT),
      SIM_ROUND_MS: '150',
      QUEUE_DISCONNECT_GRACE_MS: String(GRACE_MS),
    });
    const { base } = server;
    const people = server.players;
    const token = new Map(people.map((p) => [p.id, p.token]));

    let running = false;
    let socks = new Map<string, Socket>();
    const t0 = Date.now();
    const log = (m: string) => process.env.RESTART_DEBUG && console.error(`[${Date.now() - t0}ms] ${m}`);
    /** Starts the server; the sockets of `back` (default: everyone) connect again. */
    const start = async (back: SeededPlayer[] = people) => {
      log('start');
      await server.start();
      running = true;
      log('healthy');
      socks = new Map();
      for (const p of back) socks.set(p.id, await connectSocket(base, token.get(p.id)));
    };
    const kill = async () => {
      log('kill');
      for (const s of socks.values()) s.disconnect();
      running = false;
      await server.kill();
    };
    const sock = (id: string) => socks.get(id) as Socket;
    const queueMsg = (id: string, event: string) => sock(id).emitWithAck('queue-message', { event });
    const queueState = async (id: string) =>
      (await (
        await fetch(`${base}/api/queue`, { headers: { authorization: `Bearer ${token.get(id)}` } })
      ).json()) as QueueState;
    const getState = async (matchId: string, viewer = people[12].id) =>
      (await sock(viewer).emitWithAck('match-message', { event: 'get-state', data: { matchId } }))
        .data as MatchState;
    const act = (id: string, event: string, data: object) =>
      sock(id).emitWithAck('match-message', { event, data });

    try {
      // 0. Queue: 4 join (no accept phase), SIGKILL. Only people[0]'s tab comes back. The joins were
      // acknowledged, so all four are still queued after the restart; the three without a socket
      // leave once the grace is over (within grace + 2 s of the restart), people[0] stays.
      await start();
      const queued = people.slice(0, 4);
      for (const p of queued) expect((await queueMsg(p.id, 'join')).ok).toBe(true);
      expect(await queueState(people[3].id)).toMatchObject({ inQueue: true, phase: null });
      await kill();
      await start([people[0]]);
      const restartedAt = Date.now();
      expect(await queueState(people[0].id)).toMatchObject({ inQueue: true, phase: null });
      await expect
        .poll(async () => Promise.all(queued.map(async (p) => (await queueState(p.id)).inQueue)), {
          timeout: GRACE_MS + 2_000,
          interval: 100,
        })
        .toEqual([true, false, false, false]);
      // Past the grace, the returning player is still queued: their socket saved them.
      await new Promise((r) => setTimeout(r, Math.max(0, GRACE_MS + 1_000 - (Date.now() - restartedAt))));
      expect(await queueState(people[0].id)).toMatchObject({ inQueue: true, phase: null });
      expect((await queueMsg(people[0].id, 'leave')).ok).toBe(true);
      for (const p of people.slice(1)) socks.set(p.id, await connectSocket(base, token.get(p.id)));

      // 1. Accept phase: 10 join, 7 accept, SIGKILL. After the restart the deadline kicks the 3.
      for (const p of people.slice(0, 10)) expect((await queueMsg(p.id, 'join')).ok).toBe(true);
      for (const p of people.slice(3, 10)) expect((await queueMsg(p.id, 'ready')).ok).toBe(true);
      await kill();
      await start();
      await expect
        .poll(async () => (await queueState(people[0].id)).inQueue, { timeout: 15_000 })
        .toBe(false);
      for (const p of people.slice(3, 10))
        expect(await queueState(p.id)).toMatchObject({ inQueue: true, phase: null });
      for (const p of people.slice(0, 3)) expect((await queueState(p.id)).inQueue).toBe(false);

      // 2. Three newcomers → the 7 + 3 accept → a match. One pick, then SIGKILL on team two's turn.
      for (const p of people.slice(10, 13)) expect((await queueMsg(p.id, 'join')).ok).toBe(true);
      await expect.poll(async () => (await queueState(people[3].id)).phase?.players.length ?? 0).toBe(10);
      const ten = people.slice(3, 13);
      for (const p of ten) expect((await queueMsg(p.id, 'ready')).ok).toBe(true);
      await expect.poll(async () => (await queueState(people[3].id)).matchId ?? null).not.toBeNull();
      const matchId = (await queueState(people[3].id)).matchId as string;
      const viewer = people[0].id; // not a participant: a spectator
      let s = await getState(matchId, viewer);
      expect(s.status).toBe('playerveto');
      // Team one's captain picks (unless, on a slow machine, the deadline was faster); then the
      // server dies on team two's turn.
      await act(s.teamOne.captain._id, 'pick-player', { matchId, pickedId: s.pool[s.pool.length - 1]._id });
      await expect.poll(async () => (await getState(matchId, viewer)).turn).toBe('teamTwo');
      s = await getState(matchId, viewer);
      // What the deadline must pick for team two: the fairest player (fairness.ts), once.
      const fairest = fairestPick(
        s.teamTwo.players.map((x) => x.elo),
        s.teamOne.players.map((x) => x.elo),
        s.pool,
      );
      const teamTwoBefore = s.teamTwo.players.length;
      expect(s.turn).toBe('teamTwo');
      await kill();
      await start();
      // Under load more turns may time out before the clients are back; the first one is what matters.
      await expect
        .poll(async () => (await getState(matchId, viewer)).teamTwo.players.length, { timeout: 15_000 })
        .toBeGreaterThan(teamTwoBefore);
      s = await getState(matchId, viewer);
      log(
        JSON.stringify({
          one: s.teamOne.players.map((p) => p.elo),
          two: s.teamTwo.players.map((p) => p.elo),
          pool: s.pool.map((p) => p.elo),
          fairest: fairest?.elo,
        }),
      );
      expect(s.teamTwo.players[teamTwoBefore]._id).toBe(fairest?._id); // the timeout auto-picked the fairest player, once
      while (s.status === 'playerveto') {
        const captain = s.turn === 'teamOne' ? s.teamOne.captain : s.teamTwo.captain;
        await act(captain._id, 'pick-player', { matchId, pickedId: s.pool[0]._id });
        s = await getState(matchId, viewer);
      }

      // 3. Map veto: team one bans, SIGKILL on team two's turn; the deadline bans at random.
      expect(s.status).toBe('mapveto');
      expect((await act(s.teamOne.captain._id, 'ban-map', { matchId, mapKey: 'de_nuke' })).ok).toBe(true);
      await kill();
      await start();
      await expect
        .poll(async () => (await getState(matchId, viewer)).mapVeto.bans.length, { timeout: 15_000 })
        .toBeGreaterThanOrEqual(2);
      s = await getState(matchId, viewer);
      expect(s.mapVeto.bans[1].team).toBe('teamTwo');
      expect(s.mapVeto.bans[1].mapKey).not.toBe('de_nuke');
      while (s.status === 'mapveto') {
        const captain = s.turn === 'teamOne' ? s.teamOne.captain : s.teamTwo.captain;
        const banned = new Set(s.mapVeto.bans.map((b) => b.mapKey));
        const free = s.mapVeto.pool.find((m) => !banned.has(m.key));
        await act(captain._id, 'ban-map', { matchId, mapKey: free?.key });
        s = await getState(matchId, viewer);
      }
      expect(s.status).toBe('active');
      expect(s.mapVeto.bans).toHaveLength(6);

      // 4. Live match: SIGKILL after a few rounds; the simulator continues after the restart.
      await expect
        .poll(
          async () => {
            const cur = await getState(matchId, viewer);
            return cur.score.teamOne + cur.score.teamTwo;
          },
          { timeout: 15_000 },
        )
        .toBeGreaterThanOrEqual(3);
      await kill();
      await start();
      const participant = await getState(matchId, s.teamOne.captain._id);
      expect(participant.server?.connect).toBeTruthy();
      expect((await getState(matchId, viewer)).server?.connect).toBeUndefined();
      await expect
        .poll(async () => (await getState(matchId, viewer)).status, { timeout: 20_000 })
        .toBe('finished');
    } finally {
      if (running) await kill();
    }

    // The stored outcome, read from the server's database after the last stop (the last kill came
    // after the result: Elo is applied exactly once).
    const db = server.openDatabase();
    try {
      const [m] = await db.db.select().from(matches);
      expect(m.status).toBe('finished');
      expect(Math.max(m.scoreOne, m.scoreTwo)).toBeGreaterThanOrEqual(13);
      const rounds = await db.db.select().from(matchRounds).where(eq(matchRounds.matchId, m.id));
      expect(rounds.map((r) => r.round).sort((a, b) => a - b)).toEqual(
        Array.from({ length: m.scoreOne + m.scoreTwo }, (_, i) => i + 1),
      );
      const mp = await db.db.select().from(matchPlayers).where(eq(matchPlayers.matchId, m.id));
      expect(mp).toHaveLength(10);
      const rows = await db.db.select().from(users);
      for (const p of mp) {
        const start = people.find((x) => x.id === p.userId)?.elo as number;
        const expected = start + (p.team === m.winner ? 12 : -10);
        expect(p).toMatchObject({ eloBefore: start, eloAfter: expected });
        expect(rows.find((u) => u.id === p.userId)?.elo).toBe(expected);
      }
      for (const p of people.slice(0, 3)) expect(rows.find((u) => u.id === p.id)?.elo).toBe(p.elo);
      const all = await db.db.select().from(jobs);
      // Every match, accept and simulator deadline fired (other modules' jobs may still wait).
      expect(all.filter((j) => j.firedAt === null && MATCH_JOB_KINDS.includes(j.kind))).toEqual([]);
      expect(await db.db.select().from(queueEntries)).toEqual([]);
    } finally {
      await db.close();
      await server.dispose();
    }
    // Six kills and restarts: 165 s on a loaded two-core machine.
  }, 240_000);
});
