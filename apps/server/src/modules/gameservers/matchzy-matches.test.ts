import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestUser, manualClock, startMatch } from '../../../test/helpers';
import { createMatchTestApp, type MatchTestApp } from '../../../test/match-app';
import { users } from '../../db/schema';
import { jobs } from '../../jobs/schema';
import { matchPlayers, matchRounds } from '../matches/schema';
import { banJob, pickJob, staleJob } from '../matches/service';
import { queueState } from '../queue/service';
import { allocateJob } from './allocation';
import { SERIES_END_TAIL_MS } from './ingest';
import { leaseOfMatch } from './leases';
import { MatchzyProvider, matchzyLoadJob, parseGet5Status } from './matchzy-provider';
import { setProvider } from './service';
import { FakeMatchzyServer, type TeamNo } from './testing/fake-matchzy';

const RCON_PASSWORD = 'rcon-pw';
const STALE_TIMEOUT_MS = 1_200_000;
const clock = manualClock();
let t: MatchTestApp;
let fake: FakeMatchzyServer;
let steamSeq = 5000;

const matchRow = (id: string) => t.matchRow(id);
const eloOf = async (id: string) => (await t.app.ctx.db.select().from(users).where(eq(users.id, id)))[0].elo;
const playerRows = (id: string) =>
  t.app.ctx.db.select().from(matchPlayers).where(eq(matchPlayers.matchId, id));

interface Loaded {
  matchId: string;
  players: { id: string; steamId: string; elo: number; team: 'teamOne' | 'teamTwo' }[];
}

/** Ten Steam-linked players; the veto times out, the server is allocated and has loaded the match. */
async function loadedMatch(): Promise<Loaded> {
  const created: { id: string; steamId: string; elo: number }[] = [];
  for (let i = 0; i < 10; i++) {
    const steamId = `7656119${String(++steamSeq).padStart(10, '0')}`;
    const elo = 1000 + steamSeq;
    created.push({ ...(await createTestUser(t.app, { steamId, elo })), steamId, elo });
  }
  const matchId = await startMatch(
    t.app,
    created.map((p) => p.id),
  );
  for (let i = 0; i < 40 && (await matchRow(matchId)).mapKey === null; i++) {
    clock.advance(1_000);
    await t.app.ctx.jobs.runDue();
  }
  await t.app.ctx.jobs.runDue();
  await expect.poll(() => fake.matchid).toBe((await leaseOfMatch(t.app.ctx.db, matchId))?.gameMatchId);
  // The load's retry is called off (its row goes) once the load is confirmed.
  await expect.poll(() => jobRow(`${matchzyLoadJob.kind}:${matchId}:2`)).toBeUndefined();
  const rows = await playerRows(matchId);
  return {
    matchId,
    players: created.map((p) => ({ ...p, team: rows.find((r) => r.userId === p.id)?.team as 'teamOne' })),
  };
}

const jobRow = async (id: string) => (await t.app.ctx.db.select().from(jobs).where(eq(jobs.id, id)))[0];

/** Every player of `team` gets a kill when their team wins the round, a death when it loses. */
function play(rounds: (TeamNo | null)[], reason?: (i: number) => number | undefined): void {
  rounds.forEach((winner, i) => {
    for (const team of ['team1', 'team2'] as const)
      for (const steamId of fake.steamIds(team))
        if (winner === team) fake.addLine(steamId, { kills: 1, damage: 100, headshot_kills: i % 2 });
        else if (winner) fake.addLine(steamId, { deaths: 1 });
    fake.playRound(winner, reason?.(i));
  });
}

const seq = (team1: number, team2: number, pattern: (i: number) => boolean): TeamNo[] => {
  const out: TeamNo[] = [];
  let a = 0;
  let b = 0;
  for (let i = 0; a < team1 || b < team2; i++) {
    const one = (pattern(i) && a < team1) || b >= team2;
    out.push(one ? 'team1' : 'team2');
    if (one) a++;
    else b++;
  }
  return out;
};

/** Everyone on the server and ready; the match goes live (going_live delivered). */
async function goLive(skip: string[] = [], forced = false) {
  for (const team of ['team1', 'team2'] as const)
    for (const steamId of fake.steamIds(team)) if (!skip.includes(steamId)) fake.connect(steamId);
  fake.goLive({ forced });
  const [live] = await fake.deliver();
  expect(live.body).toEqual({ accepted: true, event: 'going_live' });
}

/**
 * The last round_end, map_result and series_end in the worst order MatchZy's tasks allow (the
 * result before the last round's numbers), then everything once more (a proxy retrying).
 */
async function deliverEnd() {
  const events = fake.outbox.splice(0);
  const tail = events.slice(-3); // last round_end, map_result, series_end
  await fake.deliver({ events: events.slice(0, -3), times: 2 });
  await fake.deliver({ events: tail, order: [1, 2, 0] });
  const again = await fake.deliver({ events, order: 'reversed' });
  // Repeats change nothing and are told so (still accepted by the webhook: the lease is open).
  for (const r of again) {
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ accepted: false });
  }
}

/** Result, per-player numbers and Elo of a finished match; then the server is freed. */
async function expectResult(
  m: Loaded,
  score: [number, number],
  winner: 'teamOne' | 'teamTwo' | 'draw',
  absent: string[] = [],
) {
  const row = await matchRow(m.matchId);
  expect([row.status, row.winner, row.scoreOne, row.scoreTwo]).toEqual(['finished', winner, ...score]);
  const rows = await playerRows(m.matchId);
  for (const p of m.players) {
    const r = rows.find((x) => x.userId === p.id);
    const won = p.team === 'teamOne' ? score[0] : score[1];
    const lost = p.team === 'teamOne' ? score[1] : score[0];
    const there = !absent.includes(p.steamId);
    expect([r?.kills, r?.deaths, r?.damage]).toEqual(there ? [won, lost, 100 * won] : [0, 0, 0]);
    // On the server for none of the rounds: not rated (the 80 % rule, docs/contract.md §4).
    if (!there) {
      expect([r?.roundsPresent, r?.eloBefore, r?.eloAfter, await eloOf(p.id)]).toEqual([
        0,
        null,
        null,
        p.elo,
      ]);
      continue;
    }
    expect(r?.roundsPresent).toBe(score[0] + score[1]);
    const delta = winner === 'draw' ? 0 : p.team === winner ? 12 : -10;
    expect([r?.eloBefore, r?.eloAfter, await eloOf(p.id)]).toEqual([p.elo, p.elo + delta, p.elo + delta]);
  }
  // The rounds' own winners come from the score change, not from MatchZy's winner.team.
  const rounds = await t.app.ctx.db.select().from(matchRounds).where(eq(matchRounds.matchId, m.matchId));
  expect(rounds).toHaveLength(score[0] + score[1]);
  for (const r of rounds) {
    const prev = rounds.find((x) => x.round === r.round - 1) ?? { scoreOne: 0, scoreTwo: 0 };
    expect(r.winner).toBe(r.scoreOne > prev.scoreOne ? 'teamOne' : 'teamTwo');
  }
  // Server freed shortly after series_end; the secret dies with the lease.
  expect((await leaseOfMatch(t.app.ctx.db, m.matchId))?.releasedAt).toBeNull();
  clock.advance(SERIES_END_TAIL_MS);
  await t.app.ctx.jobs.runDue();
  await expect.poll(async () => (await leaseOfMatch(t.app.ctx.db, m.matchId))?.releasedAt).not.toBeNull();
  const late = await fake.post({ event: 'series_end', matchid: fake.liveMatchId });
  expect(late.status).toBe(401);
  // Not scored twice, whatever comes later.
  for (const p of m.players) {
    const rated = !absent.includes(p.steamId);
    const delta = winner === 'draw' || !rated ? 0 : p.team === winner ? 12 : -10;
    expect(await eloOf(p.id)).toBe(p.elo + delta);
  }
}

beforeAll(async () => {
  fake = await new FakeMatchzyServer(RCON_PASSWORD).listen();
  t = await createMatchTestApp({
    clock,
    mapPool: null,
    matchzy: { servers: [fake], password: RCON_PASSWORD },
    env: {
      BAN_TIMEOUT_MS: '1000',
      MATCH_LIVE_TIMEOUT_MS: '600000',
      MATCH_STALE_TIMEOUT_MS: String(STALE_TIMEOUT_MS),
    },
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

describe('MatchZy as its source says it behaves', () => {
  it('an idle server answers get5_status with "matchid": null, which is no error', () => {
    const idle = JSON.stringify(fake.status());
    expect(JSON.parse(idle)).toMatchObject({ gamestate: 'none', matchid: null, team1: null, maps: null });
    expect(parseGet5Status(idle)).toMatchObject({ gamestate: 'none', matchid: null });
  });

  it('regulation: 13-7 with a halftime swap, the result before the last round, everything twice', async () => {
    const m = await loadedMatch();
    await goLive();
    play(seq(13, 7, (i) => i % 3 !== 2));
    // Round 3 went to team2 (2-1): MatchZy names the leader, team1, and team2's side number.
    const r3 = fake.outbox.find((e) => e.round_number === 3);
    expect(r3?.winner).toEqual({ team: 'team1', side: '2' });
    fake.endMap();
    // MatchZy's own reading: map_result has no players; winner.team is the leader.
    const [mapResult] = fake.outbox.filter((e) => e.event === 'map_result');
    expect(mapResult).toMatchObject({ winner: { team: 'team1' }, team1: { score: 13, players: [] } });
    await deliverEnd();
    await expectResult(m, [13, 7], 'teamOne');
  });

  it('overtime: team two wins 16-14; round_end.winner.team names the leader, not the round winner', async () => {
    const m = await loadedMatch();
    await goLive();
    // 12-12 after regulation; the first overtime (MR3) goes 2-4.
    const rounds: TeamNo[] = [
      ...seq(12, 12, (i) => i % 2 === 0),
      ...(['team1', 'team2', 'team2', 'team1', 'team2', 'team2'] as TeamNo[]),
    ];
    play(rounds);
    expect(fake.score).toEqual({ team1: 14, team2: 16 });
    // Round 25 went to team1 (13-12) and round 26 to team2 (13-13): MatchZy names the leader, and
    // "team2" when level.
    expect(fake.outbox.find((e) => e.round_number === 25)?.winner).toMatchObject({ team: 'team1' });
    expect(fake.outbox.find((e) => e.round_number === 26)?.winner).toMatchObject({ team: 'team2' });
    fake.endMap();
    await deliverEnd();
    await expectResult(m, [14, 16], 'teamTwo');
  });

  it('a draw (overtime off): 12-12, map_result says "team2", series_end "none": no Elo changes hands', async () => {
    const m = await loadedMatch();
    await goLive();
    play(seq(12, 12, (i) => i % 2 === 1));
    fake.endMap();
    const [mapResult, seriesEnd] = fake.outbox.slice(-2);
    expect(mapResult.winner).toMatchObject({ team: 'team2' }); // Utility.cs:876 on a level score
    expect(seriesEnd.winner).toMatchObject({ team: 'none' }); // MatchManagement.cs:591
    await deliverEnd();
    await expectResult(m, [12, 12], 'draw');
  });

  it('a surrender: team two gives up at 9-4, the map ends there, team one wins', async () => {
    const m = await loadedMatch();
    await goLive();
    const rounds = seq(9, 4, (i) => i % 3 !== 0);
    // The last round ends with reason 17/18 (a side surrendered), then cs_win_panel_match.
    play(rounds, (i) => (i === rounds.length - 1 ? 17 : undefined));
    fake.endMap();
    await deliverEnd();
    await expectResult(m, [9, 4], 'teamOne');
  });

  it('a player who never connects: the admin force-starts, nothing is scored for them, they are not rated', async () => {
    const m = await loadedMatch();
    const absent = m.players.find((p) => p.team === 'teamTwo')?.steamId as string;
    // MatchZy's ready check is per team: four of five is not ready (ReadySystem.cs:49-57) …
    for (const team of ['team1', 'team2'] as const)
      for (const steamId of fake.steamIds(team)) if (steamId !== absent) fake.connect(steamId);
    expect(() => fake.goLive()).toThrow(/team2: 4 of 5/);
    // … so an admin force-starts (css_forcestart, ConsoleCommands.cs:543).
    await goLive([absent], true);
    play(seq(13, 11, (i) => i % 2 === 0 || i > 20));
    fake.endMap();
    // MatchZy lists connected players only (Utility.cs:1612-1615).
    const last = fake.outbox.find((e) => e.event === 'round_end') as unknown as { team2: { players: [] } };
    expect(last.team2.players).toHaveLength(4);
    await deliverEnd();
    await expectResult(m, [13, 11], 'teamOne', [absent]);
  });

  it('a player who drops mid-match is missing from round_end; gone past the grace, a leaver: cooldown and the loss', async () => {
    const m = await loadedMatch();
    await goLive();
    const leaver = m.players.find((p) => p.team === 'teamOne') as Loaded['players'][number];
    play(seq(2, 1, (i) => i % 2 === 0));
    await fake.deliver();
    fake.disconnect(leaver.steamId); // MatchZy lists connected players only (Utility.cs:1612-1615)
    play(seq(1, 1, (i) => i % 2 === 0));
    await fake.deliver();
    const absent = (await playerRows(m.matchId)).find((r) => r.userId === leaver.id);
    expect([absent?.roundsPresent, absent?.leftAt]).toEqual([3, null]);
    clock.advance(300_000); // LEAVER_GRACE_MS
    await t.app.ctx.jobs.runDue();
    expect((await playerRows(m.matchId)).find((r) => r.userId === leaver.id)?.leftAt).not.toBeNull();
    expect((await queueState(t.app.ctx, leaver.id)).cooldown).toMatchObject({ kind: 'leave', offence: 1 });
    // Team one wins 13-3 without them: everyone else is rated, the leaver loses.
    play(seq(10, 1, (i) => i !== 4));
    fake.endMap();
    await fake.deliver();
    const row = await matchRow(m.matchId);
    expect([row.status, row.winner, row.scoreOne, row.scoreTwo]).toEqual(['finished', 'teamOne', 13, 3]);
    const rows = await playerRows(m.matchId);
    for (const p of m.players) {
      const r = rows.find((x) => x.userId === p.id);
      const delta = p.id === leaver.id || p.team === 'teamTwo' ? -10 : 12;
      expect([r?.roundsPresent, r?.eloAfter, await eloOf(p.id)]).toEqual([
        p.id === leaver.id ? 3 : 16,
        p.elo + delta,
        p.elo + delta,
      ]);
    }
  });

  it('a server restarted mid-match: nothing more comes, the match is cancelled without Elo, never scored', async () => {
    const m = await loadedMatch();
    await goLive();
    play(seq(5, 3, (i) => i % 2 === 0));
    await fake.deliver();
    expect((await matchRow(m.matchId)).round).toBe(8);
    fake.restart(); // MatchZy's state is gone: get5_status says none, no more events
    expect(fake.status()).toMatchObject({ gamestate: 'none', matchid: null });
    clock.advance(STALE_TIMEOUT_MS);
    await t.app.ctx.jobs.runDue();
    const row = await matchRow(m.matchId);
    expect([row.status, row.cancelReason, row.winner]).toEqual(['cancelled', 'SERVER_UNAVAILABLE', null]);
    for (const p of m.players) expect(await eloOf(p.id)).toBe(p.elo);
    // A late or replayed result after the cancellation is refused: the lease (and secret) are gone.
    await expect.poll(async () => (await leaseOfMatch(t.app.ctx.db, m.matchId))?.releasedAt).not.toBeNull();
    const lease = await leaseOfMatch(t.app.ctx.db, m.matchId);
    const replay = await t.app.inject({
      method: 'POST',
      url: `/api/gameservers/events/${m.matchId}`,
      headers: { authorization: `Bearer ${row.serverSecret}` },
      payload: {
        event: 'map_result',
        matchid: lease?.gameMatchId,
        team1: { score: 13 },
        team2: { score: 0 },
      },
    });
    expect(replay.statusCode).toBe(401);
    // The restarted server has no remote log URL any more: it posts nothing (PublishEvents.cs:13).
    expect((await fake.post({ event: 'map_result', matchid: lease?.gameMatchId })).status).toBe(0);
    for (const p of m.players) expect(await eloOf(p.id)).toBe(p.elo);
    // The stale deadline fired (its row is gone): it, not a cancellation, ended the match.
    expect(await jobRow(`${staleJob.kind}:${m.matchId}`)).toBeUndefined();
  });

  it('a slow map change after the load does not cancel the match: the checks reconnect until it answers', async () => {
    fake.map = 'de_nowhere';
    fake.changelevelMs = 1_500;
    try {
      const m = await loadedMatch();
      expect(fake.changelevels.at(-1)).toBe((await matchRow(m.matchId)).mapKey);
      const row = await matchRow(m.matchId);
      expect(row.status).toBe('active');
      await goLive();
      play(seq(13, 0, () => true));
      fake.endMap();
      await deliverEnd();
      await expectResult(m, [13, 0], 'teamOne');
    } finally {
      fake.changelevelMs = 0;
    }
  });

  it('a silent CS2 server holds no transaction: the site answers while it is silent', async () => {
    setProvider(
      t.app.ctx,
      new MatchzyProvider(t.app.ctx, t.app.ctx.config.cs2Servers, { timeoutMs: 20_000 }),
    );
    fake.mute = true;
    try {
      const created: { id: string; token: string }[] = [];
      for (let i = 0; i < 10; i++)
        created.push(
          await createTestUser(t.app, { steamId: `7656119${String(++steamSeq).padStart(10, '0')}` }),
        );
      const matchId = await startMatch(
        t.app,
        created.map((u) => u.id),
      );
      // The picks and bans time out (fired one by one: runDue would wait for the load below).
      for (let i = 0; i < 40 && (await matchRow(matchId)).mapKey === null; i++) {
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
      // The allocation and the load job commit; the load then waits on the silent server (its
      // claim has committed: the row is gone) …
      await t.app.ctx.jobs.fire(`${allocateJob.kind}:${matchId}`);
      await expect.poll(() => jobRow(`${matchzyLoadJob.kind}:${matchId}:1`)).toBeUndefined();
      await new Promise((r) => setTimeout(r, 300)); // the load is on the wire, the server silent
      // … while other requests on PGlite are answered at once, long before CS2_RCON_TIMEOUT_MS.
      const started = Date.now();
      const mine = await t.app.inject({
        method: 'GET',
        url: `/api/match/${matchId}`,
        headers: { authorization: `Bearer ${created[0].token}` },
      });
      expect(mine.statusCode).toBe(200);
      expect(mine.json().server?.connect).toBe(fake.address);
      const other = await createTestUser(t.app, {});
      expect(await eloOf(other.id)).toBeTypeOf('number');
      expect(Date.now() - started).toBeLessThan(2_000);
      expect((await matchRow(matchId)).status).toBe('active');
      // The server dies for good: the load fails fast, the match is cancelled, the site never waited.
      fake.mute = false;
      fake.restart();
      await expect.poll(async () => (await matchRow(matchId)).cancelReason).toBe('SERVER_UNAVAILABLE');
    } finally {
      fake.mute = false;
    }
  }, 60_000);
});
