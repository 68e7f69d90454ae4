/**
 * Reads of the matches tables that other modules need (metrics, chat moderation, drops, reports,
 * the MatchZy webhook): the tables stay with this module (docs/architecture.md, Boundaries).
 */
import { OVER_MATCH_STATUSES } from '@openpug/shared';
import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { matches, matchPlayers } from './schema';

/** Matches per status (the `openpug_matches` gauge). */
export async function countMatchesByStatus(db: Db) {
  return db.select({ status: matches.status, n: count() }).from(matches).groupBy(matches.status);
}

/** The match is stored and over (finished or cancelled): one column, for work that may come late. */
export async function isMatchOver(db: Db, matchId: string): Promise<boolean> {
  const [row] = await db.select({ status: matches.status }).from(matches).where(eq(matches.id, matchId));
  return !!row && (OVER_MATCH_STATUSES as readonly string[]).includes(row.status);
}

/** The player is a captain of the match. */
export async function isCaptain(db: Db, matchId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ captain: matchPlayers.captain })
    .from(matchPlayers)
    .where(and(eq(matchPlayers.matchId, matchId), eq(matchPlayers.userId, userId)));
  return row?.captain ?? false;
}

/** Every player of an active match, ordered by user id. */
export async function activeMatchPlayers(db: Db): Promise<{ userId: string; matchId: string }[]> {
  return db
    .select({ userId: matchPlayers.userId, matchId: matchPlayers.matchId })
    .from(matchPlayers)
    .innerJoin(matches, eq(matches.id, matchPlayers.matchId))
    .where(eq(matches.status, 'active'))
    .orderBy(asc(matchPlayers.userId));
}

/** The game server's webhook secret and the provider of a match, or undefined for no such match. */
export async function serverSecretOf(db: Db, matchId: string) {
  const [row] = await db
    .select({ serverSecret: matches.serverSecret, provider: matches.provider })
    .from(matches)
    .where(eq(matches.id, matchId));
  return row;
}

/** Both players are on the roster of the match. */
export async function playedTogether(db: Db, matchId: string, a: string, b: string): Promise<boolean> {
  const rows = await db
    .select({ userId: matchPlayers.userId })
    .from(matchPlayers)
    .where(and(eq(matchPlayers.matchId, matchId), inArray(matchPlayers.userId, [a, b])));
  return new Set(rows.map((r) => r.userId)).size === 2;
}

/** The player's last finished matches, newest first, with the player's team. */
export async function lastFinishedMatchesOf(db: Db, userId: string, limit: number) {
  return db
    .select({
      matchId: matches.id,
      finishedAt: matches.finishedAt,
      map: matches.mapName,
      team: matchPlayers.team,
      winner: matches.winner,
      scoreOne: matches.scoreOne,
      scoreTwo: matches.scoreTwo,
    })
    .from(matchPlayers)
    .innerJoin(matches, eq(matches.id, matchPlayers.matchId))
    .where(and(eq(matchPlayers.userId, userId), eq(matches.status, 'finished')))
    .orderBy(desc(matches.finishedAt), desc(matches.id))
    .limit(limit);
}
