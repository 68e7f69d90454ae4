/**
 * The game-server contract. When a match's map is set, the provider is asked for a server with
 * the rosters (SteamID64 + name per team), the map and the match id, and answers with the connect
 * and GOTV addresses. The server reports the game back in MatchZy's event vocabulary, either by
 * POSTing to `eventsUrl` with `Authorization: Bearer <secret>` (real CS2 + MatchZy) or, for the
 * embedded simulator, through the same ingestion function in-process.
 */
import type { MapInfo, TeamKey } from '@openpug/shared';
import type { Db } from '../../db/client';
import type { After } from '../../jobs';

export interface RosterPlayer {
  userId: string;
  /** SteamID64; null when the player has not linked Steam (the simulator uses the user id). */
  steamId: string | null;
  name: string;
}

export interface AllocateRequest {
  matchId: string;
  map: MapInfo;
  teams: {
    teamOne: { name: string; players: RosterPlayer[] };
    teamTwo: { name: string; players: RosterPlayer[] };
  };
  /** Where the server posts its events, and the bearer secret it must send (also to fetch its config). */
  eventsUrl: string;
  secret: string;
  /** A server not to take (the one an admin moves the match away from). */
  exclude?: string | null;
}

/** The game-server facing URLs of a match (routes.ts serves them). */
export function gameServerUrls(publicUrl: string, matchId: string): { eventsUrl: string; configUrl: string } {
  const id = encodeURIComponent(matchId);
  return {
    eventsUrl: `${publicUrl}/api/gameservers/events/${id}`,
    configUrl: `${publicUrl}/api/gameservers/config/${id}`,
  };
}

export interface AllocatedServer {
  /** `ip:port` for players (`connect ip:port`, steam://connect/ip:port). */
  connect: string;
  /** `ip:port` of GOTV for spectators. */
  gotv: string;
}

export interface GameServerProvider {
  readonly name: string;
  /**
   * Runs inside the transaction that stores the result; may schedule jobs and after-commit work
   * there. Throws when no server can take the match (the match is then cancelled).
   */
  allocate(req: AllocateRequest, tx: Db, after: After): Promise<AllocatedServer>;
  /** The match is over (finished or cancelled): end it on the server if still running, free the server. */
  release(matchId: string): Promise<void>;
  /**
   * Who is on the match's server now, by roster key (SteamID64; the simulator's players without
   * one by user id); null when the server cannot tell right now. Never inside a transaction: it
   * may be a network call. A provider without it never starts the connect window.
   */
  playersOnServer?(matchId: string): Promise<string[] | null>;
  /**
   * A substitute takes a no-show's slot on the match's server (after commit, before the match is
   * live). Throws when the server refused or could not be reached.
   */
  swapPlayer?(matchId: string, out: RosterPlayer, sub: RosterPlayer, team: TeamKey): Promise<void>;
  /**
   * An admin moves the match to another server: the match leaves the one it has, in `tx` (its
   * booking ends), and is ended there after commit. Returns that server's id, which the next
   * allocation leaves out (null when the provider has no pool to choose from).
   */
  vacate?(matchId: string, tx: Db, after: After): Promise<string | null>;
}
