/**
 * The production game-server provider (GAME_SERVER_PROVIDER=matchzy): CS2 servers from the pool
 * (CS2_SERVERS) running the MatchZy plugin, driven over RCON; MatchZy posts its events to our
 * webhook. Followed against MatchZy's source (shobhit-pathak/MatchZy ef289d5, 0.8.15).
 *
 * No RCON (or any other network call) runs inside a database transaction: on PGlite every other
 * query waits for an open transaction, so one silent CS2 server would stall the whole site.
 *
 * allocate (inside the allocation transaction, database only): books the first free pool server
 * in the lease table (which also gives the match its numeric MatchZy id) and schedules the
 * persisted job `gameserver.matchzy-load`, due at once.
 *
 * The load job (key `<matchId>:<attempt>`) commits first, then over RCON: `get5_status`; a match
 * of ours already there is confirmed as is; a leftover match is ended (`get5_endmatch`, refused
 * by MatchZy in practice mode, ConsoleCommands.cs:469); then `matchzy_loadmatch_url "<config
 * URL>" "Authorization" "Bearer <secret>"` makes the server fetch the match config, whose cvars
 * point MatchZy's remote log at our webhook (a load replaces every MatchZy setting made before
 * it, MatchManagement.cs:283, and applies the config's cvars, :317 and :359). `get5_status` then
 * confirms the load. A server on another map changes level right after the load
 * (MatchManagement.cs:342-349) and does not answer RCON meanwhile: the checks reconnect, and a
 * server that stays silent is asked again by the next attempt — only a server that answers without
 * our match, or running out of attempts, cancels the match (SERVER_UNAVAILABLE). A server that
 * cannot be reached or logged into before the load is given up for the next free pool server.
 *
 * release (on `match.ended`): a cancelled match is ended on the server at once (if still running
 * there) and its lease freed. A finished match keeps its lease — and with it its webhook secret —
 * until MatchZy's series_end (posted two seconds after map_result, MatchManagement.cs:604-606) or
 * CS2_RELEASE_GRACE_MS later (job `gameserver.matchzy-release`), leaving MatchZy's post-game and
 * demo upload alone.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { TeamKey } from '@openpug/shared';
import { z } from 'zod';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { type After, defineJob, inTransaction, jobField, logOf } from '../../jobs';
import type { MatchRow, PlayerRow } from '../matches';
import { beforeLive, matchLifecycle, matchStateOf } from '../matches';
import { cancelMatchTx, loadMatch, setServer } from '../matches/service';
import { startConnectWindow } from './connect-watch';
import { parseCs2StatusJson } from './cs2-status';
import { bookServer, deleteLease, leaseOfMatch, openLeases, releaseLease } from './leases';
import { type Get5Status, get5StatusSchema, type MatchzyMatchConfig } from './matchzy';
import type { Cs2Server } from './pool';
import {
  type AllocatedServer,
  type AllocateRequest,
  type GameServerProvider,
  gameServerUrls,
  type RosterPlayer,
} from './provider';
import { quoteArg, RconClient, withRcon } from './rcon';
import { providerOf } from './service';

export interface MatchzyProviderOptions {
  /** RCON connect/login and per-command limit (ms). */
  timeoutMs: number;
  /** How often `get5_status` is asked after the load before giving up, and the pause between. */
  loadChecks?: number;
  loadCheckIntervalMs?: number;
}

/** Attempt `attempt` (from 1) of the booked server to load the match (see `loadJob`). */
export const matchzyLoadJob = defineJob({
  kind: 'gameserver.matchzy-load',
  payload: z.object({ matchId: jobField.id, attempt: jobField.index }),
  handle: async (ctx, tx, after, { matchId, attempt }) => {
    const provider = providerOf(ctx);
    // Only after a switch of GAME_SERVER_PROVIDER with a load pending; the live deadline ends it.
    if (!(provider instanceof MatchzyProvider))
      return logOf(ctx).error(
        { matchId, attempt },
        'a MatchZy load is pending, but the provider is not MatchZy',
      );
    await provider.loadJob(tx, after, matchId, attempt);
  },
});
/** The grace after a result is over: the match's server is freed (see `releaseJob`). */
export const matchzyReleaseJob = defineJob({
  kind: 'gameserver.matchzy-release',
  payload: z.object({ matchId: jobField.id }),
  handle: async (ctx, tx, after, { matchId }) => {
    const provider = providerOf(ctx);
    if (provider instanceof MatchzyProvider) await provider.releaseJob(tx, after, matchId);
  },
});
/** Load attempts per match; a further attempt only follows a crash or restart during a load. */
const LOAD_ATTEMPTS = 3;

export class GameServerUnavailableError extends Error {}

/** Reads `get5_status`; null when the answer is not MatchZy's (plugin missing or not loaded). */
export function parseGet5Status(answer: string): Get5Status | null {
  const start = answer.indexOf('{');
  const end = answer.lastIndexOf('}');
  if (start < 0 || end < start) return null;
  try {
    const parsed = get5StatusSchema.safeParse(JSON.parse(answer.slice(start, end + 1)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

async function status(rcon: RconClient): Promise<Get5Status> {
  const answer = await rcon.command('get5_status');
  const parsed = parseGet5Status(answer);
  if (!parsed)
    throw new GameServerUnavailableError(`get5_status gave no MatchZy status: ${answer.slice(0, 200)}`);
  return parsed;
}

export function remoteLogCvars(eventsUrl: string, secret: string): Record<string, string> {
  return {
    matchzy_remote_log_url: eventsUrl,
    matchzy_remote_log_header_key: 'Authorization',
    matchzy_remote_log_header_value: `Bearer ${secret}`,
  };
}

/** The MatchZy match config of a match: rosters keyed by SteamID64 (players without one are left out). */
export function buildMatchConfig(
  match: MatchRow,
  players: readonly PlayerRow[],
  gameMatchId: number,
  cvars: Record<string, string>,
): MatchzyMatchConfig {
  const roster = (team: 'teamOne' | 'teamTwo') =>
    Object.fromEntries(
      players
        .filter((p) => p.team === team && p.steamId)
        .sort((a, b) => (a.pickNo ?? 0) - (b.pickNo ?? 0))
        .map((p) => [p.steamId as string, p.name]),
    );
  const team1 = roster('teamOne');
  const team2 = roster('teamTwo');
  return {
    matchid: gameMatchId,
    num_maps: 1,
    maplist: [match.mapKey ?? ''],
    map_sides: ['knife'],
    skip_veto: true,
    clinch_series: true,
    wingman: false,
    players_per_team: Math.max(Object.keys(team1).length, Object.keys(team2).length),
    // Per team (ReadySystem.cs:32-57, 71: each team is ready with this many ready players).
    min_players_to_ready: Math.min(Object.keys(team1).length, Object.keys(team2).length),
    team1: { name: match.teamOneName, players: team1 },
    team2: { name: match.teamTwoName, players: team2 },
    spectators: { players: {} },
    cvars,
  };
}

/** How a load ended: loaded; the server answered without our match; it could not be reached. */
type LoadOutcome =
  | { kind: 'loaded' }
  | { kind: 'refused'; why: string }
  | { kind: 'unreachable'; why: string; beforeLoad: boolean };

export class MatchzyProvider implements GameServerProvider {
  readonly name = 'matchzy';
  private readonly servers: Map<string, Cs2Server>;
  private readonly loadChecks: number;
  private readonly loadCheckIntervalMs: number;

  constructor(
    private readonly ctx: AppContext,
    pool: readonly Cs2Server[],
    private readonly options: MatchzyProviderOptions,
  ) {
    this.servers = new Map(pool.map((s) => [s.id, s]));
    this.loadChecks = options.loadChecks ?? 5;
    this.loadCheckIntervalMs = options.loadCheckIntervalMs ?? 1_000;
  }

  private rcon(server: Cs2Server) {
    return {
      host: server.host,
      port: server.port,
      password: server.password,
      timeoutMs: this.options.timeoutMs,
    };
  }

  /** Books the first free pool server (not `exclude`), freeing leases whose match is over. */
  private async book(tx: Db, matchId: string, exclude?: string): Promise<Cs2Server | null> {
    const busy = new Set<string>();
    for (const lease of await openLeases(tx)) {
      // A lease whose match is over was not released (a crash, the release grace, a cancellation
      // elsewhere): the server is free again; a match left on it is ended before the next load.
      const found = await loadMatch(tx, lease.matchId);
      if (found?.match.status === 'active') busy.add(lease.server);
      else await releaseLease(tx, lease.gameMatchId, this.ctx.clock.now());
    }
    for (const server of this.servers.values()) {
      if (busy.has(server.id) || server.id === exclude) continue;
      if (await bookServer(tx, matchId, server.id, this.ctx.clock.now())) return server;
      // booked meanwhile by another instance
    }
    return null;
  }

  async allocate(req: AllocateRequest, tx: Db, after: After): Promise<AllocatedServer> {
    const server = await this.book(tx, req.matchId, req.exclude ?? undefined);
    if (!server) throw new GameServerUnavailableError('every CS2 server is busy');
    // reschedule: a match moved by an admin loads again from the first attempt.
    await this.ctx.jobs.reschedule(
      tx,
      after,
      matchzyLoadJob,
      { matchId: req.matchId, attempt: 1 },
      this.ctx.clock.now(),
    );
    return { connect: server.connect, gotv: server.gotv };
  }

  /** The longest one load can take: connect, login, the load command, the status checks and pauses. */
  private loadBudgetMs(): number {
    return this.options.timeoutMs * (2 * this.loadChecks + 4) + this.loadCheckIntervalMs * this.loadChecks;
  }

  /**
   * Job `gameserver.matchzy-load` (key `<matchId>:<attempt>`): the booked server loads the match.
   * The RCON work runs after this job's commit (the server fetches the config from us while it
   * loads, and no network call may hold a transaction open). So that a crash during the load is
   * not the end of it, the next attempt is scheduled first, one load budget later, and called off
   * once the load succeeded or failed; a server that went silent (a slow map change) leaves it
   * pending. A failed load, or no attempt left, cancels the match, which frees the server.
   */
  async loadJob(tx: Db, after: After, matchId: string, attempt: number): Promise<void> {
    const match = (await loadMatch(tx, matchId))?.match;
    if (!match || !beforeLive(matchStateOf(match))) return; // over, or playing already
    const lease = await leaseOfMatch(tx, matchId);
    const server = lease?.releasedAt === null ? this.servers.get(lease.server) : undefined;
    if (!lease || !server || !match.serverSecret || attempt > LOAD_ATTEMPTS) {
      logOf(this.ctx).error(
        { matchId, attempt, server: lease?.server },
        'no CS2 server can load the match (no open lease in the pool, or no attempt left)',
      );
      await cancelMatchTx(this.ctx, tx, after, matchId, 'SERVER_UNAVAILABLE');
      return;
    }
    const jobs = this.ctx.jobs;
    const next = { matchId, attempt: attempt + 1 };
    await jobs.schedule(tx, after, matchzyLoadJob, next, this.ctx.clock.now() + this.loadBudgetMs());
    const { configUrl } = gameServerUrls(this.ctx.config.PUBLIC_URL, matchId);
    const secret = match.serverSecret;
    after.add(async () => {
      const outcome = await this.load(server, lease.gameMatchId, configUrl, secret);
      if (outcome.kind !== 'loaded')
        logOf(this.ctx).error(
          { server: server.id, matchId, attempt, outcome },
          'CS2 server did not load the match',
        );
      if (outcome.kind === 'unreachable' && !outcome.beforeLoad) return; // the next attempt asks again
      await inTransaction(
        this.ctx.db,
        async (tx2, after2) => {
          await jobs.cancel(tx2, after2, matchzyLoadJob, next);
          // Loaded: the server is ready, the players' connect deadline starts.
          if (outcome.kind === 'loaded') return startConnectWindow(this.ctx, tx2, after2, matchId);
          if (outcome.kind === 'unreachable' && attempt < LOAD_ATTEMPTS) {
            // Never reached: the match moves to the next free pool server, if there is one.
            const found = await loadMatch(tx2, matchId, true);
            const current = await leaseOfMatch(tx2, matchId);
            const movable = found && matchLifecycle.transition(matchStateOf(found.match), 'serverSet').ok;
            if (movable && current?.gameMatchId === lease.gameMatchId) {
              await deleteLease(tx2, lease.gameMatchId);
              const other = await this.book(tx2, matchId, server.id);
              if (other) {
                await setServer(this.ctx, tx2, after2, matchId, {
                  provider: this.name,
                  connect: other.connect,
                  gotv: other.gotv,
                  secret,
                });
                await jobs.reschedule(tx2, after2, matchzyLoadJob, next, this.ctx.clock.now());
                return;
              }
            }
          } else if (outcome.kind === 'unreachable') {
            await deleteLease(tx2, lease.gameMatchId);
          }
          await cancelMatchTx(this.ctx, tx2, after2, matchId, 'SERVER_UNAVAILABLE');
        },
        logOf(this.ctx),
      );
    });
  }

  /** get5_status on a fresh connection; null when the server cannot be reached right now. */
  private async statusOnce(server: Cs2Server): Promise<Get5Status | null> {
    try {
      return await withRcon(this.rcon(server), status);
    } catch (err) {
      if (err instanceof GameServerUnavailableError) throw err;
      return null;
    }
  }

  /** The server loads the match config (see loadJob); never throws. */
  private async load(
    server: Cs2Server,
    gameMatchId: number,
    configUrl: string,
    secret: string,
  ): Promise<LoadOutcome> {
    const ours = (s: Get5Status | null) => !!s && s.gamestate !== 'none' && Number(s.matchid) === gameMatchId;
    let answer = '';
    let sent = false;
    try {
      const connected = await RconClient.connect(this.rcon(server));
      try {
        const first = await status(connected);
        if (ours(first)) return { kind: 'loaded' };
        if (first.gamestate !== 'none') {
          const ended = await connected.command('get5_endmatch');
          const after = await status(connected);
          if (after.gamestate !== 'none')
            return { kind: 'refused', why: `a match is left on the server: ${ended.trim().slice(0, 200)}` };
        }
        sent = true;
        answer = await connected.command(
          `matchzy_loadmatch_url ${quoteArg(configUrl)} "Authorization" ${quoteArg(`Bearer ${secret}`)}`,
        );
        const s = await status(connected);
        if (ours(s)) return { kind: 'loaded' };
      } finally {
        connected.close();
      }
    } catch (err) {
      // Before the load: an unreachable server, a refused password, no MatchZy. After it: most
      // likely the map change that follows a load, which drops RCON for a while.
      if (!sent) return { kind: 'unreachable', why: (err as Error).message, beforeLoad: true };
    }
    let reached = false;
    for (let i = 0; i < this.loadChecks; i++) {
      await sleep(this.loadCheckIntervalMs);
      let s: Get5Status | null = null;
      try {
        s = await this.statusOnce(server);
      } catch {
        s = null;
      }
      if (ours(s)) return { kind: 'loaded' };
      if (s) reached = true;
    }
    return reached
      ? { kind: 'refused', why: `MatchZy did not load the match: ${answer.trim().slice(0, 200)}` }
      : { kind: 'unreachable', why: 'the server did not answer after the load', beforeLoad: false };
  }

  /** The pool server that plays the match now (an open lease), if any. */
  private async serverOf(matchId: string): Promise<Cs2Server | null> {
    const lease = await leaseOfMatch(this.ctx.db, matchId);
    return (lease?.releasedAt === null && this.servers.get(lease.server)) || null;
  }

  /**
   * The players on the match's server: `status_json` (cs2-status.ts: CS2's `status` no longer lists
   * SteamIDs); null when the server cannot be reached or answers something else.
   */
  async playersOnServer(matchId: string): Promise<string[] | null> {
    const server = await this.serverOf(matchId);
    if (!server) return null;
    try {
      return parseCs2StatusJson(await withRcon(this.rcon(server), (rcon) => rcon.command('status_json')));
    } catch {
      return null;
    }
  }

  /**
   * A substitute replaces a no-show in MatchZy's roster (Teams.cs at ef289d5):
   * `matchzy_removeplayer <steam64>` (Teams.cs:118-157; it also kicks the player if connected,
   * :145-152) then `matchzy_addplayer <steam64> <team1|team2> "<name>"` (Teams.cs:72-116; three
   * arguments, :86-90; "… added to <team> successfully!", :115). Both are refused during half-time
   * and without a match set up (:77-85, :124-133) — a match waiting for its players is in warm-up.
   * Caveat of 0.8.15: RemovePlayerFromTeam (:180-199) returns after the first roster it looks at
   * (team1), so a team2 no-show stays in MatchZy's team2 list (the command still kicks them): the
   * substitute is added all the same.
   */
  async swapPlayer(matchId: string, out: RosterPlayer, sub: RosterPlayer, team: TeamKey): Promise<void> {
    const server = await this.serverOf(matchId);
    if (!server) throw new GameServerUnavailableError(`no open lease for match ${matchId}`);
    if (!sub.steamId) throw new GameServerUnavailableError('the substitute has no SteamID64');
    // The console has no escape for quotes: MatchZy shows the name, it does not match on it.
    const name = sub.name.replace(/["\r\n\0]/g, "'");
    await withRcon(this.rcon(server), async (rcon) => {
      if (out.steamId) await rcon.command(`matchzy_removeplayer ${out.steamId}`);
      const answer = await rcon.command(
        `matchzy_addplayer ${sub.steamId} ${team === 'teamOne' ? 'team1' : 'team2'} ${quoteArg(name)}`,
      );
      if (!/successfully/.test(answer))
        throw new GameServerUnavailableError(`matchzy_addplayer: ${answer.trim().slice(0, 200)}`);
    });
  }

  async release(matchId: string): Promise<void> {
    const lease = await leaseOfMatch(this.ctx.db, matchId);
    if (!lease || lease.releasedAt !== null) return;
    const found = await loadMatch(this.ctx.db, matchId);
    if (found?.match.status === 'finished' && this.ctx.config.CS2_RELEASE_GRACE_MS > 0) {
      // MatchZy still posts series_end (and maybe the last round's stats) after the result.
      await inTransaction(
        this.ctx.db,
        (tx, after) =>
          this.ctx.jobs.schedule(
            tx,
            after,
            matchzyReleaseJob,
            { matchId },
            this.ctx.clock.now() + this.ctx.config.CS2_RELEASE_GRACE_MS,
          ),
        logOf(this.ctx),
      );
      return;
    }
    await this.releaseNow(matchId);
  }

  /** Job `gameserver.matchzy-release` (key: match id): the grace after a result is over. */
  async releaseJob(tx: Db, after: After, matchId: string): Promise<void> {
    const lease = await leaseOfMatch(tx, matchId);
    if (lease?.releasedAt === null) after.add(() => this.releaseNow(matchId));
  }

  /** Ends the match on the server if it still runs there (not MatchZy's own post-game), frees the lease. */
  async releaseNow(matchId: string): Promise<void> {
    const lease = await leaseOfMatch(this.ctx.db, matchId);
    if (!lease || lease.releasedAt !== null) return;
    await this.endOnServer(lease.server, lease.gameMatchId, matchId);
    await releaseLease(this.ctx.db, lease.gameMatchId, this.ctx.clock.now());
  }

  /** `get5_endmatch` when MatchZy still runs match `gameMatchId` (not its post-game); never throws. */
  private async endOnServer(serverId: string, gameMatchId: number, matchId: string): Promise<void> {
    const server = this.servers.get(serverId);
    if (!server) return;
    try {
      await withRcon(this.rcon(server), async (rcon) => {
        const s = await status(rcon);
        const running = Number(s.matchid) === gameMatchId && !['none', 'post_game'].includes(s.gamestate);
        if (running) await rcon.command('get5_endmatch');
      });
    } catch (err) {
      // Freed anyway: the next load on this server ends whatever is left there.
      logOf(this.ctx).error({ err, server: server.id, matchId }, 'could not end the match on the CS2 server');
    }
  }

  /**
   * An admin moves the match away: its lease goes in `tx` (a match has one lease row, and the new
   * booking needs it), and after commit the match is ended on the server it leaves. The webhook
   * secret changes with the new allocation, so that server cannot post into the match any more.
   */
  async vacate(matchId: string, tx: Db, after: After): Promise<string | null> {
    const lease = await leaseOfMatch(tx, matchId);
    if (!lease) return null;
    await deleteLease(tx, lease.gameMatchId);
    if (lease.releasedAt === null)
      after.add(() => this.endOnServer(lease.server, lease.gameMatchId, matchId));
    return lease.server;
  }
}
