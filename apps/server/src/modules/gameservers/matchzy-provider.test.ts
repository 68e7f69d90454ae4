import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  createTestUser,
  manualClock,
  startMatch,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { createMatchTestApp, type MatchTestApp } from '../../../test/match-app';
import { users } from '../../db/schema';
import { inTransaction } from '../../jobs';
import { jobs } from '../../jobs/schema';
import { matchPlayers } from '../matches/schema';
import { banJob, cancelMatch, pickJob, staleJob } from '../matches/service';
import { allocateJob } from './allocation';
import { SERIES_END_TAIL_MS } from './ingest';
import { bookServer, leaseOfMatch, releaseLease } from './leases';
import { MatchzyProvider, matchzyLoadJob } from './matchzy-provider';
import { providerOf, setProvider } from './service';
import { FakeMatchzyServer } from './testing/fake-matchzy';

const RCON_PASSWORD = 'rcon-pw';
const LIVE_TIMEOUT_MS = 600_000;
const STALE_TIMEOUT_MS = 1_200_000;
const clock = manualClock();
let t: MatchTestApp;
let fake: FakeMatchzyServer;
let steamSeq = 0;

const matchRow = (id: string) => t.matchRow(id);
const eloOf = async (id: string) => (await t.app.ctx.db.select().from(users).where(eq(users.id, id)))[0].elo;

interface Started {
  matchId: string;
  players: (TestUser & { steamId: string; elo: number })[];
  /** What the first player's socket in the match room received. */
  events: { name: string; payload: unknown }[];
}

const sockets: Socket[] = [];

/** Ten Steam-linked players in a new match in playerveto, the first one watching the room. */
async function newMatch(): Promise<Started> {
  const players: Started['players'] = [];
  for (let i = 0; i < 10; i++) {
    const steamId = `7656119${String(++steamSeq).padStart(10, '0')}`;
    const elo = 300 + steamSeq;
    players.push({ ...(await createTestUser(t.app, { steamId, elo })), steamId, elo });
  }
  const matchId = await startMatch(
    t.app,
    players.map((p) => p.id),
  );
  const socket = await t.socket(players[0].token);
  sockets.push(socket);
  const events: Started['events'] = [];
  socket.onAny((name, payload) => events.push({ name, payload }));
  await socket.emitWithAck('join-match', { matchId });
  return { matchId, players, events };
}

const vetoing = async (matchId: string) =>
  ['playerveto', 'mapveto'].includes((await matchRow(matchId)).status);

/** Picks and bans time out one by one, fired by hand: the allocation job is left pending. */
async function vetoByFiring(matchId: string): Promise<void> {
  for (let i = 0; i < 30 && (await vetoing(matchId)); i++) {
    clock.advance(1_000);
    const due = (await t.app.ctx.db.select().from(jobs)).filter(
      (j) =>
        j.firedAt === null &&
        j.dueAt <= clock.now() &&
        [pickJob.kind, banJob.kind].includes(j.kind) &&
        j.key.startsWith(matchId),
    );
    for (const j of due) await t.app.ctx.jobs.fire(j.id);
  }
  expect((await matchRow(matchId)).status).toBe('active');
}

const jobRow = async (id: string) => (await t.app.ctx.db.select().from(jobs).where(eq(jobs.id, id)))[0];

/** A new match whose picks and bans time out until the map is set and the allocation job has run. */
async function activeMatch(): Promise<Started> {
  const started = await newMatch();
  const { matchId } = started;
  for (let i = 0; i < 30 && (await vetoing(matchId)); i++) {
    clock.advance(1_000);
    await t.app.ctx.jobs.runDue();
  }
  // The last ban set the map; the allocation job was due at once (and may have cancelled the match).
  await t.app.ctx.jobs.runDue();
  expect((await matchRow(matchId)).mapKey).not.toBeNull();
  return started;
}

/**
 * Runs the clock to a game-server deadline `ms` from now: a millisecond before it the match is still
 * active and nothing was sent to the server. Returns the match row once the deadline has fired.
 */
async function passDeadline(matchId: string, ms: number) {
  const before = fake.commands.length;
  clock.advance(ms - 1);
  await t.app.ctx.jobs.runDue();
  expect((await matchRow(matchId)).status).toBe('active');
  expect(fake.commands.length).toBe(before);
  clock.advance(1);
  await t.app.ctx.jobs.runDue();
  return matchRow(matchId);
}

/** After a SERVER_UNAVAILABLE cancellation: freed through match.ended (game ended, lease closed), the room told. */
async function expectServerFreed(matchId: string, events: Started['events']): Promise<void> {
  expect(fake.commands.slice(-2)).toEqual(['get5_status', 'get5_endmatch']);
  expect(fake.gamestate).toBe('none');
  expect((await leaseOfMatch(t.app.ctx.db, matchId))?.releasedAt).not.toBeNull();
  await expect
    .poll(() => events.find((e) => e.name === 'MATCH_CANCELLED')?.payload)
    .toEqual({ matchId, reason: 'SERVER_UNAVAILABLE' });
}

/** A round_end as MatchZy posts it: cumulative stats per SteamID64, team1 = our team one. */
async function roundEnd(matchId: string, round: number, score: [number, number], winner: 'team1' | 'team2') {
  const rows = await t.app.ctx.db.select().from(matchPlayers).where(eq(matchPlayers.matchId, matchId));
  const team = (key: 'teamOne' | 'teamTwo', s: number, kills: number) => ({
    name: key,
    score: s,
    players: rows
      .filter((p) => p.team === key)
      .map((p) => ({
        steamid: p.steamId,
        name: p.name,
        stats: {
          kills,
          deaths: round - kills,
          assists: 0,
          damage: 100 * kills,
          headshot_kills: Math.floor(kills / 2),
        },
      })),
  });
  return fake.sendEvent({
    event: 'round_end',
    map_number: 0,
    round_number: round,
    winner: { side: 'ct', team: winner },
    team1: team('teamOne', score[0], score[0]),
    team2: team('teamTwo', score[1], score[1]),
  });
}

beforeAll(async () => {
  fake = await new FakeMatchzyServer(RCON_PASSWORD).listen();
  // The fake server reaches the app at PUBLIC_URL, as a real one would; the whole map pool and
  // the configured load checks.
  t = await createMatchTestApp({
    clock,
    mapPool: null,
    matchzy: { servers: [fake], password: RCON_PASSWORD, quickLoad: false },
    env: {
      BAN_TIMEOUT_MS: '1000',
      MATCH_LIVE_TIMEOUT_MS: String(LIVE_TIMEOUT_MS),
      MATCH_STALE_TIMEOUT_MS: String(STALE_TIMEOUT_MS),
      // These tests count the RCON commands of loads and releases; the connect window and its
      // `status_json` polls have their own tests (substitutes-matchzy.test.ts).
      MATCH_CONNECT_TIMEOUT_MS: '0',
    },
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

describe('MatchZy provider', () => {
  let first: Started;

  it('allocates a pool server over RCON; the server fetches the config with the bearer secret', async () => {
    expect(providerOf(t.app.ctx).name).toBe('matchzy');
    first = await activeMatch();
    const { matchId } = first;
    await expect.poll(() => fake.gamestate).toBe('warmup');
    await expect.poll(() => fake.commands.at(-1)).toBe('get5_status'); // the load confirmed
    const m = await matchRow(matchId);
    const lease = await leaseOfMatch(t.app.ctx.db, matchId);
    expect(lease).toMatchObject({ server: fake.address, releasedAt: null });
    const gameMatchId = lease?.gameMatchId as number;
    expect(m).toMatchObject({
      provider: 'matchzy',
      serverConnect: fake.address,
      serverGotv: `127.0.0.1:${fake.port + 5}`,
    });
    const secret = m.serverSecret as string;
    const eventsUrl = `${t.url}/api/gameservers/events/${matchId}`;
    const configUrl = `${t.url}/api/gameservers/config/${matchId}`;
    // No remote-log cvars before the load: a load replaces them (MatchManagement.cs:283); the
    // config's cvars set them (MatchManagement.cs:317, 359).
    expect(fake.commands).toEqual([
      'get5_status',
      `matchzy_loadmatch_url "${configUrl}" "Authorization" "Bearer ${secret}"`,
      'get5_status',
    ]);
    expect(fake.remoteLog).toEqual({ url: eventsUrl, key: 'Authorization', value: `Bearer ${secret}` });
    expect(fake.configFetches).toEqual([
      { url: configUrl, headers: { Authorization: `Bearer ${secret}` }, status: 200 },
    ]);
    const rows = await t.app.ctx.db.select().from(matchPlayers).where(eq(matchPlayers.matchId, matchId));
    const roster = (team: string) =>
      Object.fromEntries(rows.filter((p) => p.team === team).map((p) => [p.steamId, p.name]));
    expect(fake.config).toEqual({
      matchid: gameMatchId,
      num_maps: 1,
      maplist: [m.mapKey],
      map_sides: ['knife'],
      skip_veto: true,
      clinch_series: true,
      wingman: false,
      players_per_team: 5,
      min_players_to_ready: 5, // per team (ReadySystem.cs:71)
      team1: { name: m.teamOneName, players: roster('teamOne') },
      team2: { name: m.teamTwoName, players: roster('teamTwo') },
      spectators: { players: {} },
      cvars: {
        matchzy_remote_log_url: eventsUrl,
        matchzy_remote_log_header_key: 'Authorization',
        matchzy_remote_log_header_value: `Bearer ${secret}`,
      },
    });
    expect(Object.keys(roster('teamOne'))).toHaveLength(5);
    expect(fake.matchid).toBe(gameMatchId);
    // Players see the server to connect to.
    const mine = await t.app.inject({
      method: 'GET',
      url: `/api/match/${matchId}`,
      headers: bearer(first.players[0].token),
    });
    expect(mine.json().server).toEqual({ connect: fake.address, gotv: `127.0.0.1:${fake.port + 5}` });
    await expect
      .poll(() => first.events.find((e) => e.name === 'MATCH_SERVER_AVAILABLE')?.payload)
      .toEqual({ matchId, connect: fake.address, gotv: `127.0.0.1:${fake.port + 5}` });
  });

  it('the config route refuses a wrong or missing secret (401) and an unknown match (404)', async () => {
    const url = `/api/gameservers/config/${first.matchId}`;
    const wrong = await t.app.inject({ method: 'GET', url, headers: { authorization: 'Bearer nope' } });
    expect([wrong.statusCode, wrong.json()]).toEqual([401, { errors: { msg: 'UNAUTHORIZED' } }]);
    const missing = await t.app.inject({ method: 'GET', url });
    expect([missing.statusCode, missing.json()]).toEqual([401, { errors: { msg: 'UNAUTHORIZED' } }]);
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/api/gameservers/config/no-such-match',
      headers: { authorization: 'Bearer nope' },
    });
    expect([unknown.statusCode, unknown.json()]).toEqual([404, { errors: { msg: 'NOT_FOUND' } }]);
  });

  it('a second match while the only server is busy is cancelled with SERVER_UNAVAILABLE', async () => {
    const before = fake.commands.length;
    const { matchId } = await activeMatch();
    await expect.poll(async () => (await matchRow(matchId)).status).toBe('cancelled');
    expect((await matchRow(matchId)).cancelReason).toBe('SERVER_UNAVAILABLE');
    expect(await leaseOfMatch(t.app.ctx.db, matchId)).toBeNull();
    expect(fake.commands.length).toBe(before); // the busy server was not touched
    expect(fake.matchid).toBe((await leaseOfMatch(t.app.ctx.db, first.matchId))?.gameMatchId);
  });

  it('MatchZy events with the numeric matchid play the match to the end, with Elo, and free the server', async () => {
    const { matchId, players } = first;
    const lease = await leaseOfMatch(t.app.ctx.db, matchId);
    // An event of another MatchZy match on the same URL changes nothing.
    const stray = await fake.sendEvent({ event: 'going_live', matchid: (lease?.gameMatchId ?? 0) + 1000 });
    expect(stray.body).toEqual({ accepted: false, reason: 'other-match' });
    expect((await fake.sendEvent({ event: 'going_live', map_number: 0 })).body).toEqual({
      accepted: true,
      event: 'going_live',
    });
    expect((await matchRow(matchId)).liveAt).not.toBeNull();
    // Live in time: the live deadline is off, however long the game takes.
    clock.advance(LIVE_TIMEOUT_MS);
    await t.app.ctx.jobs.runDue();
    expect((await matchRow(matchId)).status).toBe('active');
    let score: [number, number] = [0, 0];
    for (let round = 1; score[0] < 13; round++) {
      const winner = round % 5 === 0 ? 'team2' : 'team1';
      score = winner === 'team1' ? [score[0] + 1, score[1]] : [score[0], score[1] + 1];
      expect((await roundEnd(matchId, round, score, winner)).body).toEqual({
        accepted: true,
        event: 'round_end',
      });
    }
    expect(score).toEqual([13, 3]);
    const live = await matchRow(matchId);
    expect([live.status, live.round, live.scoreOne, live.scoreTwo]).toEqual(['active', 16, 13, 3]);
    const mapResult = await fake.sendEvent({
      event: 'map_result',
      map_number: 0,
      team1: { score: 13 },
      team2: { score: 3 },
      winner: { side: 't', team: 'team1' },
    });
    expect(mapResult.body).toEqual({ accepted: true, event: 'map_result' });
    const seriesEnd = await fake.sendEvent({
      event: 'series_end',
      team1_series_score: 1,
      team2_series_score: 0,
      winner: { side: 't', team: 'team1' },
    });
    expect(seriesEnd.body).toEqual({ accepted: false, reason: 'not-live' });

    const m = await matchRow(matchId);
    expect([m.status, m.winner, m.scoreOne, m.scoreTwo]).toEqual(['finished', 'teamOne', 13, 3]);
    const rows = await t.app.ctx.db.select().from(matchPlayers).where(eq(matchPlayers.matchId, matchId));
    for (const p of players) {
      const row = rows.find((r) => r.userId === p.id);
      const expected = p.elo + (row?.team === 'teamOne' ? 12 : -10);
      expect(await eloOf(p.id)).toBe(expected);
      expect(row).toMatchObject({
        eloBefore: p.elo,
        eloAfter: expected,
        kills: row?.team === 'teamOne' ? 13 : 3,
      });
    }
    // Released shortly after MatchZy's series_end followed the result (the secret is valid until
    // then); MatchZy's own post-game is left alone (no get5_endmatch).
    expect((await leaseOfMatch(t.app.ctx.db, matchId))?.releasedAt).toBeNull();
    clock.advance(SERIES_END_TAIL_MS);
    await t.app.ctx.jobs.runDue();
    await expect.poll(async () => (await leaseOfMatch(t.app.ctx.db, matchId))?.releasedAt).not.toBeNull();
    expect(fake.commands.at(-1)).toBe('get5_status');
    expect(fake.commands).not.toContain('get5_endmatch');
    // Finished: the stale deadline is off; the silence after the game cancels nothing.
    expect(await jobRow(`${staleJob.kind}:${matchId}`)).toBeUndefined();
    clock.advance(STALE_TIMEOUT_MS);
    await t.app.ctx.jobs.runDue();
    const after = await matchRow(matchId);
    expect([after.status, after.cancelReason, after.winner]).toEqual(['finished', null, 'teamOne']);
    expect(await eloOf(players[0].id)).toBe(
      players[0].elo + (rows.find((r) => r.userId === players[0].id)?.team === 'teamOne' ? 12 : -10),
    );
  });

  it('the freed server takes the next match, ending the post-game leftover first; a cancellation ends a running match', async () => {
    expect(fake.gamestate).toBe('post_game');
    const before = fake.commands.length;
    const { matchId } = await activeMatch();
    await expect.poll(() => fake.gamestate).toBe('warmup');
    await expect.poll(() => fake.commands.at(-1)).toBe('get5_status'); // the load confirmed
    const lease = await leaseOfMatch(t.app.ctx.db, matchId);
    expect(fake.matchid).toBe(lease?.gameMatchId);
    expect(lease?.gameMatchId).not.toBe((await leaseOfMatch(t.app.ctx.db, first.matchId))?.gameMatchId);
    expect(fake.commands.slice(before, before + 2)).toEqual(['get5_status', 'get5_endmatch']);

    await fake.sendEvent({ event: 'going_live', map_number: 0 });
    expect(fake.gamestate).toBe('live');
    // Cancelled for a reason no game-server code knows (as an admin would): the server is freed all
    // the same, the game on it ended.
    expect(await cancelMatch(t.app.ctx, matchId, 'ADMIN_CANCELLED')).toBe(true);
    expect(fake.commands.slice(-2)).toEqual(['get5_status', 'get5_endmatch']);
    expect(fake.gamestate).toBe('none');
    expect((await leaseOfMatch(t.app.ctx.db, matchId))?.releasedAt).not.toBeNull();
    // Releasing twice changes nothing.
    const count = fake.commands.length;
    await providerOf(t.app.ctx).release(matchId);
    expect(fake.commands.length).toBe(count);
  });

  it('a match that never goes live is cancelled at MATCH_LIVE_TIMEOUT_MS and its server freed', async () => {
    const { matchId, events } = await activeMatch();
    await expect.poll(() => fake.gamestate).toBe('warmup'); // loaded; the players never ready up
    await expect.poll(() => fake.commands.at(-1)).toBe('get5_status');
    // The load is confirmed once its retry is called off; until then that retry, due a load budget
    // later, would fire in the clock jump below and load the match again.
    await expect.poll(() => jobRow(`${matchzyLoadJob.kind}:${matchId}:2`)).toBeUndefined();
    const m = await passDeadline(matchId, LIVE_TIMEOUT_MS);
    expect([m.status, m.cancelReason, m.liveAt]).toEqual(['cancelled', 'SERVER_UNAVAILABLE', null]);
    await expectServerFreed(matchId, events);
  });

  it('a live game whose server goes silent is cancelled MATCH_STALE_TIMEOUT_MS after its last event; its players can queue again', async () => {
    const { matchId, events, players } = await activeMatch();
    await expect.poll(() => fake.gamestate).toBe('warmup');
    await expect.poll(() => fake.commands.at(-1)).toBe('get5_status');
    // The first player could play on: linked voice, and the queue is open to them once the match is over.
    await t.app.ctx.db.update(users).set({ teamSpeakId: 'ts-stale' }).where(eq(users.id, players[0].id));
    const socket = sockets.at(-1) as Socket;
    const join = () => socket.emitWithAck('queue-message', { event: 'join' });
    expect(await join()).toEqual({ ok: false, msg: 'ALREADY_IN_MATCH' });

    expect((await fake.sendEvent({ event: 'going_live', map_number: 0 })).body).toMatchObject({
      accepted: true,
    });
    // A round ends a millisecond before the deadline: the game goes on, the deadline moves.
    clock.advance(STALE_TIMEOUT_MS - 1);
    await t.app.ctx.jobs.runDue();
    expect((await matchRow(matchId)).status).toBe('active');
    expect((await roundEnd(matchId, 1, [1, 0], 'team1')).body).toEqual({
      accepted: true,
      event: 'round_end',
    });
    // A repeated event is no sign of a game going on: it does not move the deadline again.
    clock.advance(1);
    expect((await roundEnd(matchId, 1, [1, 0], 'team1')).body).toEqual({
      accepted: false,
      reason: 'duplicate',
    });
    await t.app.ctx.jobs.runDue();
    expect((await matchRow(matchId)).status).toBe('active');

    // Then the server dies: nothing more comes in.
    const m = await passDeadline(matchId, STALE_TIMEOUT_MS - 1);
    expect([m.status, m.cancelReason, m.round]).toEqual(['cancelled', 'SERVER_UNAVAILABLE', 1]);
    await expectServerFreed(matchId, events);
    // No Elo changed hands, and the players are free.
    expect(await eloOf(players[0].id)).toBe(players[0].elo);
    expect(await join()).toEqual({ ok: true, data: { inQueue: true, count: 1 } });
    expect(await socket.emitWithAck('queue-message', { event: 'leave' })).toMatchObject({ ok: true });
  });

  it('the load is a persisted job: after a crash between allocation and load another instance loads the match', async () => {
    const scheduler = t.app.ctx.jobs;
    // This instance fires deadlines only when told to, and will "die" right after the allocation.
    await scheduler.stop();
    let other: TestApp | null = null;
    try {
      const { matchId } = await newMatch();
      await vetoByFiring(matchId);
      const fetches = fake.configFetches.length;
      expect(await scheduler.fire(`${allocateJob.kind}:${matchId}`)).toBe(true);
      // Committed: server booked and announced, its load pending in the database, nothing loaded.
      const lease = await leaseOfMatch(t.app.ctx.db, matchId);
      expect(lease).toMatchObject({ server: fake.address, releasedAt: null });
      expect((await matchRow(matchId)).serverConnect).toBe(fake.address);
      const load = `${matchzyLoadJob.kind}:${matchId}:1`;
      expect(await jobRow(load)).toMatchObject({ dueAt: clock.now(), firedAt: null });
      expect([fake.gamestate, fake.configFetches.length]).toEqual(['none', fetches]);

      // Another instance on the same database starts and picks the pending load up.
      other = await createTestApp({ clock, env: t.env, database: t.database });
      await other.app.ready();
      await expect.poll(() => fake.gamestate).toBe('warmup');
      expect(fake.matchid).toBe(lease?.gameMatchId);
      expect(fake.configFetches.at(-1)?.status).toBe(200);
      // The retry is called off and the load is done; only the other instance ran (this one is stopped).
      await expect.poll(() => jobRow(`${matchzyLoadJob.kind}:${matchId}:2`)).toBeUndefined();
      expect(await jobRow(load)).toBeUndefined();
      expect((await matchRow(matchId)).status).toBe('active');
      // Done here: cancelled, the server is free for the next test.
      await cancelMatch(t.app.ctx, matchId, 'ADMIN_CANCELLED');
      expect(fake.gamestate).toBe('none');
    } finally {
      await other?.close();
      await scheduler.start();
    }
  });

  it('a load cut short by a crash is tried again a load budget later; after three attempts the match is cancelled', async () => {
    const scheduler = t.app.ctx.jobs;
    await scheduler.stop();
    try {
      const { matchId, events } = await newMatch();
      await vetoByFiring(matchId);
      expect(await scheduler.fire(`${allocateJob.kind}:${matchId}`)).toBe(true);
      // What attempt 1 leaves behind when its instance dies during the load (after its claim
      // committed): no row of its own, and attempt 2.
      await inTransaction(t.app.ctx.db, async (tx, after) => {
        await tx.delete(jobs).where(eq(jobs.id, `${matchzyLoadJob.kind}:${matchId}:1`));
        await scheduler.schedule(tx, after, matchzyLoadJob, { matchId, attempt: 2 }, clock.now() + 60_000);
      });
      await scheduler.runDue();
      expect(fake.gamestate).toBe('none');
      clock.advance(60_000);
      await scheduler.runDue();
      expect(fake.gamestate).toBe('warmup');
      expect(await jobRow(`${matchzyLoadJob.kind}:${matchId}:3`)).toBeUndefined();
      expect((await matchRow(matchId)).status).toBe('active');

      // Had attempt 3 died as well, attempt 4 gives up: cancelled, the server freed.
      await inTransaction(t.app.ctx.db, (tx, after) =>
        scheduler.schedule(tx, after, matchzyLoadJob, { matchId, attempt: 4 }, clock.now()),
      );
      await scheduler.runDue();
      expect((await matchRow(matchId)).cancelReason).toBe('SERVER_UNAVAILABLE');
      expect(fake.gamestate).toBe('none');
      expect((await leaseOfMatch(t.app.ctx.db, matchId))?.releasedAt).not.toBeNull();
      await expect
        .poll(() => events.filter((e) => e.name === 'MATCH_CANCELLED').map((e) => e.payload))
        .toEqual([{ matchId, reason: 'SERVER_UNAVAILABLE' }]);
    } finally {
      await scheduler.start();
    }
  });

  it('a refused RCON password cancels the match with SERVER_UNAVAILABLE and books nothing', async () => {
    const [server] = t.app.ctx.config.cs2Servers;
    setProvider(
      t.app.ctx,
      new MatchzyProvider(t.app.ctx, [{ ...server, password: 'wrong' }], { timeoutMs: 1_000 }),
    );
    try {
      const failed = fake.failedLogins;
      const { matchId } = await activeMatch();
      await expect.poll(async () => (await matchRow(matchId)).status).toBe('cancelled');
      expect((await matchRow(matchId)).cancelReason).toBe('SERVER_UNAVAILABLE');
      expect(fake.failedLogins).toBe(failed + 1);
      expect(await leaseOfMatch(t.app.ctx.db, matchId)).toBeNull();
    } finally {
      setProvider(
        t.app.ctx,
        new MatchzyProvider(t.app.ctx, t.app.ctx.config.cs2Servers, { timeoutMs: 2_000 }),
      );
    }
  });

  it('a server that does not load the match: the match is cancelled after commit and the server freed', async () => {
    setProvider(
      t.app.ctx,
      new MatchzyProvider(t.app.ctx, t.app.ctx.config.cs2Servers, {
        timeoutMs: 2_000,
        loadChecks: 3,
        loadCheckIntervalMs: 10,
      }),
    );
    fake.ignoreLoad = true;
    try {
      const { matchId, events } = await activeMatch();
      await expect.poll(async () => (await matchRow(matchId)).status).toBe('cancelled');
      expect((await matchRow(matchId)).cancelReason).toBe('SERVER_UNAVAILABLE');
      // It had a server for a moment (announced first, then cancelled); the lease is closed again.
      expect((await matchRow(matchId)).serverConnect).toBe(fake.address);
      const told = () =>
        events
          .filter((e) => ['MATCH_SERVER_AVAILABLE', 'MATCH_CANCELLED'].includes(e.name))
          .map((e) => e.name);
      await expect.poll(told).toEqual(['MATCH_SERVER_AVAILABLE', 'MATCH_CANCELLED']);
      await expect.poll(async () => (await leaseOfMatch(t.app.ctx.db, matchId))?.releasedAt).not.toBeNull();
      expect(fake.commands.filter((c) => c === 'get5_status').length).toBeGreaterThanOrEqual(3);
    } finally {
      fake.ignoreLoad = false;
    }
  });

  it('the queue refuses a player without a linked Steam account (STEAM_NOT_LINKED)', async () => {
    const noSteam = await createTestUser(t.app, { teamSpeakId: 'ts-no-steam' });
    const withSteam = await createTestUser(t.app, {
      teamSpeakId: 'ts-steam',
      steamId: `7656119${String(++steamSeq).padStart(10, '0')}`,
    });
    const a = await t.socket(noSteam.token);
    const b = await t.socket(withSteam.token);
    sockets.push(a, b);
    const join = (s: Socket) => s.emitWithAck('queue-message', { event: 'join' });
    expect(await join(a)).toEqual({ ok: false, msg: 'STEAM_NOT_LINKED' });
    expect(await join(b)).toEqual({ ok: true, data: { inQueue: true, count: 1 } });
    expect(await b.emitWithAck('queue-message', { event: 'leave' })).toMatchObject({ ok: true });
  });

  it('the database allows one open lease per server, whatever instance books it', async () => {
    const db = t.app.ctx.db;
    const a = await bookServer(db, 'lease-test-a', '10.9.9.9:27015', clock.now());
    expect(a).not.toBeNull();
    expect(await bookServer(db, 'lease-test-b', '10.9.9.9:27015', clock.now())).toBeNull();
    expect(await bookServer(db, 'lease-test-a', '10.9.9.8:27015', clock.now())).toBeNull(); // one lease per match
    expect(await releaseLease(db, a?.gameMatchId as number, clock.now())).toBe(true);
    expect(await releaseLease(db, a?.gameMatchId as number, clock.now())).toBe(false);
    expect(await bookServer(db, 'lease-test-b', '10.9.9.9:27015', clock.now())).not.toBeNull();

    // Two instances at once: the second booking waits for the first transaction, then gets nothing.
    let commitFirst = () => {};
    let booked = () => {};
    const bookedFirst = new Promise<void>((r) => {
      booked = r;
    });
    const firstTx = inTransaction(db, async (tx) => {
      const lease = await bookServer(tx, 'lease-test-c', '10.9.9.7:27015', clock.now());
      booked();
      await new Promise<void>((r) => {
        commitFirst = r;
      });
      return lease;
    });
    await bookedFirst;
    const secondTx = inTransaction(db, (tx) => bookServer(tx, 'lease-test-d', '10.9.9.7:27015', clock.now()));
    setTimeout(() => commitFirst(), 50);
    expect(await firstTx).not.toBeNull();
    expect(await secondTx).toBeNull();
  });
});
