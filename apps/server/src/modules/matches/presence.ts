/**
 * Who of a match's roster is on its game server, and who missed the connect deadline, as stored
 * rows of `match_events` (the game facts of a match): `player_connect:<userId>` while the game
 * server reports the player on it (the connect poll, gameservers/connect-watch.ts, adds and removes
 * them), `no_show:<userId>` once a player missed the deadline (kept for the record; the slot is
 * open while that player is still on the roster). Once live (leavers.ts): `absent:<userId>` since
 * the first round_end that did not list the player (gone again when one lists them), and
 * `sub_request:<userId>` while a captain's request for a leaver's substitute is offered. Read by
 * the match state and the substitute rules.
 */
import type { MatchConnect } from '@openpug/shared';
import { and, eq, like, or } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { matchStateOf } from './lifecycle';
import { matchEvents } from './schema';
import { isRostered, type MatchRow, type PlayerRow } from './state';

export const CONNECTED_KEY = 'player_connect:';
export const NO_SHOW_KEY = 'no_show:';
export const ABSENT_KEY = 'absent:';
export const SUB_REQUEST_KEY = 'sub_request:';

/** The roster key the game server reports a player by: SteamID64, else (simulator) the user id. */
export const rosterKey = (p: Pick<PlayerRow, 'steamId' | 'userId'>) => p.steamId ?? p.userId;

export interface Presence {
  onServer: Set<string>;
  noShows: Set<string>;
  /** Live: rostered players missing from the round_end events, with since when. */
  absent: Map<string, number>;
  /** Live: leavers whose captain asked for a substitute (the offer runs). */
  subRequests: Set<string>;
}

const PRESENCE_KEYS = [CONNECTED_KEY, NO_SHOW_KEY, ABSENT_KEY, SUB_REQUEST_KEY];

export async function presenceOf(db: Db, matchId: string): Promise<Presence> {
  const rows = await db
    .select({ key: matchEvents.eventKey, at: matchEvents.receivedAt })
    .from(matchEvents)
    .where(
      and(
        eq(matchEvents.matchId, matchId),
        or(...PRESENCE_KEYS.map((k) => like(matchEvents.eventKey, `${k}%`))),
      ),
    );
  const presence: Presence = {
    onServer: new Set(),
    noShows: new Set(),
    absent: new Map(),
    subRequests: new Set(),
  };
  for (const { key, at } of rows) {
    if (key.startsWith(CONNECTED_KEY)) presence.onServer.add(key.slice(CONNECTED_KEY.length));
    else if (key.startsWith(NO_SHOW_KEY)) presence.noShows.add(key.slice(NO_SHOW_KEY.length));
    else if (key.startsWith(ABSENT_KEY)) presence.absent.set(key.slice(ABSENT_KEY.length), at);
    else presence.subRequests.add(key.slice(SUB_REQUEST_KEY.length));
  }
  return presence;
}

/** Whether the match waits for its players: active, its server set, not live yet, the window on. */
export function waitsForPlayers(ctx: AppContext, match: MatchRow): boolean {
  return ctx.config.MATCH_CONNECT_TIMEOUT_MS > 0 && matchStateOf(match) === 'waiting';
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
  const rostered = players.filter(isRostered);
  return {
    deadline: match.deadline,
    onServer: rostered.filter((p) => onServer.has(p.userId)).map((p) => p.userId),
    noShows: rostered.filter((p) => noShows.has(p.userId)).map((p) => p.userId),
  };
}

/** Whether a live match's substitute offer is running (leaver slots asked for, deadline ahead). */
export const liveOfferRuns = (ctx: AppContext, match: MatchRow) =>
  matchStateOf(match) === 'live' && match.deadline !== null && match.deadline > ctx.clock.now();

/** Stored for the room: the live match's leavers whose slot is open, and the running offer. */
export async function leaverStateOf(
  ctx: AppContext,
  db: Db,
  match: MatchRow,
  players: readonly PlayerRow[],
): Promise<{ leavers: string[]; substituteOffer: { deadline: number; slots: string[] } | null }> {
  if (matchStateOf(match) !== 'live') return { leavers: [], substituteOffer: null };
  const leavers = players.filter((p) => isRostered(p) && p.leftAt !== null).map((p) => p.userId);
  if (leavers.length === 0) return { leavers, substituteOffer: null };
  const { subRequests } = await presenceOf(db, match.id);
  const slots = leavers.filter((id) => subRequests.has(id));
  return {
    leavers,
    substituteOffer:
      liveOfferRuns(ctx, match) && slots.length > 0 && match.deadline !== null
        ? { deadline: match.deadline, slots }
        : null,
  };
}
