/**
 * The production game-server provider (GAME_SERVER_PROVIDER=matchzy): CS2 servers from the pool
 * (CS2_SERVERS) running the MatchZy plugin, driven over RCON; MatchZy posts its events to our
 * webhook.
 *
 * allocate (inside the allocation transaction): books the first free pool server in the lease
 * table (which also gives the match its numeric MatchZy id), then over RCON checks MatchZy answers
 * (`get5_status`), ends a leftover match, and points the remote log (event webhook) at the match's
 * events URL with `Authorization: Bearer <secret>`. A server that does not answer or refuses the
 * password is skipped; none left → the allocation throws and the match is cancelled.
 *
 * Then the persisted job `gameserver.matchzy-load`, scheduled in the allocation transaction and due
 * at once: `matchzy_loadmatch_url "<config URL>" "Authorization" "Bearer <secret>"` makes the
 * server fetch the match config (it must see the committed secret, hence after commit), and
 * `get5_status` confirms the match is loaded; if not, the match is cancelled (SERVER_UNAVAILABLE)
 * and the server freed. Being a job, the load survives a crash or restart after the allocation.
 *
 * release (on `match.ended`): ends the match on the server if it is still running there (not
 * after MatchZy's own series end, which keeps the post-game and demo upload going), then frees
 * the lease.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { type After, inTransaction, jobsOf, logOf } from '../../jobs';
import { cancelMatchTx, loadMatch } from '../matches/service';
import type { MatchRow, PlayerRow } from '../matches/state';
import { bookServer, deleteLease, leaseOfMatch, openLeases, releaseLease } from './leases';
import { type Get5Status, get5StatusSchema, type MatchzyMatchConfig } from './matchzy';
import type { Cs2Server } from './pool';
import {
  type AllocatedServer,
  type AllocateRequest,
  type GameServerProvider,
  gameServerUrls,
} from './provider';
import { quoteArg, type RconClient, withRcon } from './rcon';

export interface MatchzyProviderOptions {
  /** RCON connect/login and per-command limit (ms). */
  timeoutMs: number;
  /** How often `get5_status` is asked after the load before giving up, and the pause between. */
  loadChecks?: number;
  loadCheckIntervalMs?: number;
}

export const MATCHZY_LOAD_JOB = 'gameserver.matchzy-load';
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
    min_players_to_ready: Object.keys(team1).length + Object.keys(team2).length,
    team1: { name: match.teamOneName, players: team1 },
    team2: { name: match.teamTwoName, players: team2 },
    spectators: { players: {} },
    cvars,
  };
}

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

  async allocate(req: AllocateRequest, tx: Db, after: After): Promise<AllocatedServer> {
    const busy = new Set<string>();
    for (const lease of await openLeases(tx)) {
      // A lease whose match is over was not released (a crash, or a cancellation elsewhere):
      // the server is free again; a match left on it is ended below before the new one loads.
      const found = await loadMatch(tx, lease.matchId);
      if (found?.match.status === 'active') busy.add(lease.server);
      else await releaseLease(tx, lease.gameMatchId, this.ctx.clock.now());
    }
    const failures: string[] = [];
    for (const server of this.servers.values()) {
      if (busy.has(server.id)) continue;
      const lease = await bookServer(tx, req.matchId, server.id, this.ctx.clock.now());
      if (!lease) continue; // booked meanwhile by another instance
      try {
        await withRcon(this.rcon(server), async (rcon) => {
          if ((await status(rcon)).gamestate !== 'none') await rcon.command('get5_endmatch');
          for (const [cvar, value] of Object.entries(remoteLogCvars(req.eventsUrl, req.secret)))
            await rcon.command(`${cvar} ${quoteArg(value)}`);
        });
      } catch (err) {
        failures.push(`${server.id}: ${(err as Error).message}`);
        await deleteLease(tx, lease.gameMatchId);
        continue;
      }
      await jobsOf(this.ctx).schedule(tx, after, MATCHZY_LOAD_JOB, `${req.matchId}:1`, this.ctx.clock.now());
      return { connect: server.connect, gotv: server.gotv };
    }
    throw new GameServerUnavailableError(
      failures.length > 0
        ? `no CS2 server took the match (${failures.join('; ')})`
        : 'every CS2 server is busy',
    );
  }

  /** The longest one load can take: connect, login, the load command, the status checks and pauses. */
  private loadBudgetMs(): number {
    return this.options.timeoutMs * (this.loadChecks + 3) + this.loadCheckIntervalMs * this.loadChecks;
  }

  /**
   * Job `gameserver.matchzy-load` (key `<matchId>:<attempt>`): the booked server loads the match.
   * The RCON work runs after this job's commit, because the server fetches the config from us
   * while it loads (on PGlite every query waits for an open transaction). So that a crash during
   * the load is not the end of it, the next attempt is scheduled first, one load budget later,
   * and called off once the load succeeded or failed; after a crash whichever instance picks it
   * up loads again (a match already loaded there is confirmed by get5_status). A failed load, or
   * no attempt left, cancels the match, which frees the server (match.ended → release).
   */
  async loadJob(tx: Db, after: After, matchId: string, attempt: number): Promise<void> {
    const match = (await loadMatch(tx, matchId))?.match;
    if (match?.status !== 'active' || match.liveAt !== null) return; // over, or playing already
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
    const jobs = jobsOf(this.ctx);
    const next = `${matchId}:${attempt + 1}`;
    await jobs.schedule(tx, after, MATCHZY_LOAD_JOB, next, this.ctx.clock.now() + this.loadBudgetMs());
    const { configUrl } = gameServerUrls(this.ctx.config.PUBLIC_URL, matchId);
    const secret = match.serverSecret;
    after.add(async () => {
      let loaded = true;
      try {
        await this.load(server, lease.gameMatchId, configUrl, secret);
      } catch (err) {
        loaded = false;
        logOf(this.ctx).error({ err, server: server.id, matchId }, 'CS2 server did not load the match');
      }
      await inTransaction(
        this.ctx.db,
        async (tx2, after2) => {
          await jobs.cancel(tx2, after2, MATCHZY_LOAD_JOB, next);
          if (!loaded) await cancelMatchTx(this.ctx, tx2, after2, matchId, 'SERVER_UNAVAILABLE');
        },
        logOf(this.ctx),
      );
    });
  }

  /** The server loads the match config; throws unless get5_status then shows the match. */
  private async load(
    server: Cs2Server,
    gameMatchId: number,
    configUrl: string,
    secret: string,
  ): Promise<void> {
    await withRcon(this.rcon(server), async (rcon) => {
      const answer = await rcon.command(
        `matchzy_loadmatch_url ${quoteArg(configUrl)} "Authorization" ${quoteArg(`Bearer ${secret}`)}`,
      );
      for (let i = 0; i < this.loadChecks; i++) {
        const s = await status(rcon);
        if (s.gamestate !== 'none' && Number(s.matchid) === gameMatchId) return;
        if (i < this.loadChecks - 1) await sleep(this.loadCheckIntervalMs);
      }
      throw new GameServerUnavailableError(`MatchZy did not load the match: ${answer.trim().slice(0, 200)}`);
    });
  }

  async release(matchId: string): Promise<void> {
    const lease = await leaseOfMatch(this.ctx.db, matchId);
    if (!lease || lease.releasedAt !== null) return;
    const server = this.servers.get(lease.server);
    if (server) {
      try {
        await withRcon(this.rcon(server), async (rcon) => {
          const s = await status(rcon);
          const running =
            Number(s.matchid) === lease.gameMatchId && !['none', 'post_game'].includes(s.gamestate);
          if (running) await rcon.command('get5_endmatch');
        });
      } catch (err) {
        // Freed anyway: the next allocation on this server ends whatever is left there.
        logOf(this.ctx).error(
          { err, server: server.id, matchId },
          'could not end the match on the CS2 server',
        );
      }
    }
    await releaseLease(this.ctx.db, lease.gameMatchId, this.ctx.clock.now());
  }
}
