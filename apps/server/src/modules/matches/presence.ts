/**
 * Who of a match's roster is on its game server, and who missed the connect deadline, as stored
 * rows of `match_events` (the game facts of a match): `player_connect:<userId>` while the game
 * server reports the player on it (the connect poll, gameservers/connect-watch.ts, adds and removes
 * them), `no_show:<userId>` once a player missed the deadline (kept for the record; the slot is
 * open while that player is still on the roster). Read by the match state and the substitute rules.
 */
import type { MatchConnect } from '@openpug/shared';
import { and, eq, like, or } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { matchEvents } from './schema';
import type { MatchRow, PlayerRow } from './state';

export const CONNECTED_KEY = 'player_connect:';
export const NO_SHOW_KEY = 'no_show:';

/** The roster key the game server reports a player by: SteamID64, else (simulator) the user id. */
export const rosterKey = (p: Pick<PlayerRow, 'steamId' | 'userId'>) => p.steamId ?? p.userId;

export async function presenceOf(
  db: Db,
  matchId: string,
): Promise<{ onServer: Set<string>; noShows: Set<string> }> {
  const rows = await db
    .select({ key: matchEvents.eventKey })
    .from(matchEvents)
    .where(
      and(
        eq(matchEvents.matchId, matchId),
        or(like(matchEvents.eventKey, `${CONNECTED_KEY}%`), like(matchEvents.eventKey, `${NO_SHOW_KEY}%`)),
      ),
    );
  const onServer = new Set<string>();
  const noShows = new Set<string>();
  for (const { key } of rows) {
    if (key.startsWith(CONNECTED_KEY)) onServer.add(key.slice(CONNECTED_KEY.length));
    else noShows.add(key.slice(NO_SHOW_KEY.length));
  }
  return { onServer, noShows };
}

/** Whether the match waits for its players: active, its server set, not live yet, the window on. */
export function waitsForPlayers(ctx: AppContext, match: MatchRow): boolean {
  return (
    ctx.config.MATCH_CONNECT_TIMEOUT_MS > 0 &&
    match.status === 'active' &&
    match.liveAt === null &&
    match.serverGotv !== null
  );
}

/** The connect state shown in the room (MATCH_STATE.connect); null unless the match waits for players. */
export async function connectStateOf(
  ctx: AppContext,
  db: Db,
  match: MatchRow,
  players: readonly PlayerRow[],
): Promise<MatchConnect | null> {
  if (!waitsForPlayers(ctx, match)) return null;
  const { onServer, noShows } = await presenceOf(db, match.id);
  const rostered = players.filter((p) => p.team !== null);
  return {
    deadline: match.deadline,
    onServer: rostered.filter((p) => onServer.has(p.userId)).map((p) => p.userId),
    noShows: rostered.filter((p) => noShows.has(p.userId)).map((p) => p.userId),
  };
}
