/**
 * The embedded game server (default provider): "allocates" a server instantly and plays an MR12
 * match with overtime (MR3 halves: first to 13, else 16, 19, …) at SIM_ROUND_MS per round. Each
 * step is a persisted job (`gameserver.sim`, key `<matchId>:<step>`), so a restart continues the
 * game where it stopped. Rounds are generated from a seed of (match id, round) and fed to the
 * same ingestion path as real MatchZy events.
 *
 * Like a real server, it is ready at once and its players come onto it: each rostered player (and
 * a substitute) SIM_CONNECT_MS after that, unless a test keeps them away (`stayAway`). It answers
 * the connect poll with them, and — while the connect window is on (MATCH_CONNECT_TIMEOUT_MS) —
 * goes live only once the stored presence has every rostered player, as MatchZy starts only when
 * both teams are ready. Once live, only the players on the server play a round and are listed in
 * its round_end, as MatchZy lists connected players only (Utility.cs:1612-1615); a test makes a
 * player leave with `leave` (and come back with `arrive`). Who connects when is kept in memory:
 * after a restart everyone is there but those kept away.
 */

import type { TeamKey } from '@openpug/shared';
import { z } from 'zod';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { type After, defineJob, jobField } from '../../jobs';
import { isRostered, matchStateOf, type PlayerRow, rosterKey } from '../matches';
import { everyoneOnServer, loadMatch } from '../matches/service';
import { startConnectWindow } from './connect-watch';
import { applyGameEvent } from './ingest';
import type { MatchzyRoundEnd } from './matchzy';
import type { AllocatedServer, AllocateRequest, GameServerProvider, RosterPlayer } from './provider';
import { providerOf } from './service';

/** One step of a simulated match (`step` 0 is going live, then a round per step). */
export const simJob = defineJob({
  kind: 'gameserver.sim',
  payload: z.object({ matchId: jobField.id, step: jobField.index }),
  handle: async (ctx, tx, after, { matchId, step }) => {
    const provider = providerOf(ctx);
    const simulator = provider instanceof SimulatorProvider ? provider : undefined;
    await simStep(ctx, tx, after, matchId, step, {
      isOnServer: simulator ? (key) => simulator.isOnServer(matchId, key) : undefined,
      seed: simulator?.seedOf(matchId),
    });
  },
});

/** Whether a map is over at this score: MR12 (first to 13), overtime MR3 (first to 16, 19, …). */
export function isMapOver(a: number, b: number): boolean {
  const total = a + b;
  const high = Math.max(a, b);
  if (total <= 24) return high >= 13;
  const segment = Math.floor((total - 25) / 6);
  return high >= 16 + 3 * segment;
}

export function hashSeed(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Line = { kills: number; deaths: number; assists: number; damage: number; headshots: number };

/** One simulated round: the winner and each player's numbers in it. */
export function simulateRound(
  seed: string,
  teamOne: readonly { key: string; elo: number }[],
  teamTwo: readonly { key: string; elo: number }[],
): { winner: 'teamOne' | 'teamTwo'; lines: Map<string, Line> } {
  const rnd = mulberry32(hashSeed(seed));
  const avg = (t: readonly { elo: number }[]) => t.reduce((s, p) => s + p.elo, 0) / Math.max(1, t.length);
  const pOne = Math.min(0.65, Math.max(0.35, 1 / (1 + 10 ** ((avg(teamTwo) - avg(teamOne)) / 400))));
  const winner = rnd() < pOne ? 'teamOne' : 'teamTwo';
  const lines = new Map<string, Line>();
  for (const p of [...teamOne, ...teamTwo])
    lines.set(p.key, { kills: 0, deaths: 0, assists: 0, damage: 0, headshots: 0 });
  const [won, lost] = winner === 'teamOne' ? [teamOne, teamTwo] : [teamTwo, teamOne];
  const pickFrom = <T>(a: readonly T[]) => a[Math.floor(rnd() * a.length)];
  const die = (victims: readonly { key: string }[], killers: readonly { key: string }[], n: number) => {
    const alive = [...victims];
    for (let i = 0; i < n && alive.length > 0; i++) {
      const victim = alive.splice(Math.floor(rnd() * alive.length), 1)[0];
      const killer = pickFrom(killers);
      const k = lines.get(killer.key) as Line;
      k.kills++;
      k.damage += 100;
      if (rnd() < 0.45) k.headshots++;
      (lines.get(victim.key) as Line).deaths++;
      if (rnd() < 0.3 && killers.length > 1) {
        const helper = pickFrom(killers.filter((x) => x.key !== killer.key));
        const h = lines.get(helper.key) as Line;
        h.assists++;
        h.damage += 20 + Math.floor(rnd() * 60);
      }
    }
  };
  die(lost, won, rnd() < 0.7 ? lost.length : 3 + Math.floor(rnd() * 2));
  die(won, lost, Math.floor(rnd() * Math.min(5, won.length)));
  return { winner, lines };
}

export class SimulatorProvider implements GameServerProvider {
  readonly name = 'simulator';
  /** Per match: when each roster key comes onto the server. */
  private readonly arrivals = new Map<string, Map<string, number>>();
  /** Roster keys (SteamID64, else user id) that never come (tests: a no-show). */
  private readonly away = new Set<string>();
  /** Tests: a match whose rounds are drawn from this seed instead of its id (a known length). */
  private readonly seeds = new Map<string, string>();
  constructor(private readonly ctx: AppContext) {}

  /** Tests: this player (roster key) does not come onto any simulated server until `arrive`. */
  stayAway(key: string): void {
    this.away.add(key);
  }

  /** Tests: this player (roster key) drops off every simulated server (a leaver) until `arrive`. */
  leave(key: string): void {
    this.away.add(key);
  }

  /** Tests: draw this match's rounds from `seed`, so the test knows how long the match runs. */
  fixSeed(matchId: string, seed: string): void {
    this.seeds.set(matchId, seed);
  }

  /** The seed this match's rounds are drawn from: its id unless a test fixed one. */
  seedOf(matchId: string): string {
    return this.seeds.get(matchId) ?? matchId;
  }

  /** Whether a roster key is on the match's server now (what its round_end lists). */
  isOnServer(matchId: string, key: string): boolean {
    if (this.away.has(key)) return false;
    const at = this.arrivals.get(matchId)?.get(key);
    // Not allocated by this process (a restart), or on the roster from before: there.
    return at === undefined ? !this.arrivals.has(matchId) : at <= this.ctx.clock.now();
  }

  /** Tests: a player kept away comes onto the server now. */
  arrive(key: string): void {
    this.away.delete(key);
    for (const arrivals of this.arrivals.values())
      if (arrivals.has(key)) arrivals.set(key, this.ctx.clock.now());
  }

  private arriving(matchId: string): Map<string, number> {
    let arrivals = this.arrivals.get(matchId);
    if (!arrivals) {
      arrivals = new Map();
      this.arrivals.set(matchId, arrivals);
    }
    return arrivals;
  }

  async playersOnServer(matchId: string): Promise<string[] | null> {
    const arrivals = this.arrivals.get(matchId);
    const now = this.ctx.clock.now();
    if (!arrivals) {
      // Not allocated by this process (a restart): whoever is on the roster is there.
      const found = await loadMatch(this.ctx.db, matchId);
      if (!found) return null;
      return found.players.filter((p) => p.team !== null && !this.away.has(rosterKey(p))).map(rosterKey);
    }
    return [...arrivals].filter(([key, at]) => at <= now && !this.away.has(key)).map(([key]) => key);
  }

  async swapPlayer(matchId: string, out: RosterPlayer, sub: RosterPlayer, _team: TeamKey): Promise<void> {
    const arrivals = this.arriving(matchId);
    arrivals.delete(out.steamId ?? out.userId);
    arrivals.set(sub.steamId ?? sub.userId, this.ctx.clock.now() + this.ctx.config.SIM_CONNECT_MS);
  }

  async allocate(req: AllocateRequest, tx: Db, after: After): Promise<AllocatedServer> {
    const arrivals = this.arriving(req.matchId);
    const at = this.ctx.clock.now() + this.ctx.config.SIM_CONNECT_MS;
    for (const p of [...req.teams.teamOne.players, ...req.teams.teamTwo.players])
      arrivals.set(p.steamId ?? p.userId, at);
    await startConnectWindow(this.ctx, tx, after, req.matchId);
    const host = new URL(this.ctx.config.PUBLIC_URL).hostname;
    const port = 27015 + (hashSeed(req.matchId) % 500) * 10;
    // reschedule: a match moved by an admin starts over with a fresh first step.
    await this.ctx.jobs.reschedule(
      tx,
      after,
      simJob,
      { matchId: req.matchId, step: 0 },
      this.ctx.clock.now() + this.ctx.config.SIM_ROUND_MS,
    );
    return { connect: `${host}:${port}`, gotv: `${host}:${port + 5}` };
  }

  async release(matchId: string): Promise<void> {
    this.arrivals.delete(matchId);
  }

  /** An admin moves the match: the players come onto the next simulated server anew. */
  async vacate(matchId: string): Promise<string | null> {
    this.arrivals.delete(matchId);
    return null;
  }
}

const keyOf = rosterKey;

/** One simulator step: going_live first, then a round per step, then map_result and series_end. */
export async function simStep(
  ctx: AppContext,
  tx: Db,
  after: After,
  matchId: string,
  step: number,
  { isOnServer = () => true, seed = matchId }: { isOnServer?: (key: string) => boolean; seed?: string } = {},
): Promise<void> {
  const found = await loadMatch(tx, matchId, true);
  if (found?.match.status !== 'active') return;
  const { match, players } = found;
  if (matchStateOf(match) !== 'live') {
    // Like MatchZy, the game starts only with both teams complete on the server.
    if (ctx.config.MATCH_CONNECT_TIMEOUT_MS === 0 || (await everyoneOnServer(tx, matchId, players)))
      await applyGameEvent(ctx, tx, after, matchId, { event: 'going_live', matchid: matchId, map_number: 0 });
  } else {
    const round = match.round + 1;
    // Only who is on the server plays the round and is listed in its round_end.
    const here = (p: PlayerRow) => isRostered(p) && isOnServer(keyOf(p));
    const one = players.filter((p) => p.team === 'teamOne' && here(p));
    const two = players.filter((p) => p.team === 'teamTwo' && here(p));
    const sim = simulateRound(
      `${seed}:${round}`,
      one.map((p) => ({ key: keyOf(p), elo: p.elo })),
      two.map((p) => ({ key: keyOf(p), elo: p.elo })),
    );
    const score = {
      teamOne: match.scoreOne + (sim.winner === 'teamOne' ? 1 : 0),
      teamTwo: match.scoreTwo + (sim.winner === 'teamTwo' ? 1 : 0),
    };
    const teamJson = (members: PlayerRow[], s: number) => ({
      score: s,
      players: members.map((p) => {
        const l = sim.lines.get(keyOf(p)) as Line;
        return {
          steamid: keyOf(p),
          name: p.name,
          stats: {
            kills: p.kills + l.kills,
            deaths: p.deaths + l.deaths,
            assists: p.assists + l.assists,
            damage: p.damage + l.damage,
            headshot_kills: p.headshots + l.headshots,
          },
        };
      }),
    });
    const event: MatchzyRoundEnd = {
      event: 'round_end',
      matchid: matchId,
      map_number: 0,
      round_number: round,
      winner: { team: sim.winner === 'teamOne' ? 'team1' : 'team2' },
      team1: teamJson(one, score.teamOne),
      team2: teamJson(two, score.teamTwo),
    };
    await applyGameEvent(ctx, tx, after, matchId, event);
    if (isMapOver(score.teamOne, score.teamTwo)) {
      const w = score.teamOne > score.teamTwo ? 'team1' : 'team2';
      await applyGameEvent(ctx, tx, after, matchId, {
        event: 'map_result',
        matchid: matchId,
        map_number: 0,
        team1: { score: score.teamOne },
        team2: { score: score.teamTwo },
        winner: { team: w },
      });
      await applyGameEvent(ctx, tx, after, matchId, {
        event: 'series_end',
        matchid: matchId,
        team1_series_score: w === 'team1' ? 1 : 0,
        team2_series_score: w === 'team2' ? 1 : 0,
        winner: { team: w },
      });
      return;
    }
  }
  await ctx.jobs.schedule(
    tx,
    after,
    simJob,
    { matchId, step: step + 1 },
    ctx.clock.now() + ctx.config.SIM_ROUND_MS,
  );
}
