/**
 * The match lists: `GET /api/match` (every match, or the running ones) and a player's matches
 * (`GET /api/match/user/:userId`), newest first, a page at a time, each match with its players.
 */
import { LIVE_MATCH_STATUSES, type MatchListQuery } from '@openpug/shared';
import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { matches, matchPlayers } from './schema';
import { buildSummary, type PlayerRow } from './state';

/** A match list's page of the query (`order` 1: oldest first). */
function listPage<T extends PgSelect>(query: T, q: MatchListQuery) {
  return query
    .orderBy(q.order === 1 ? matches.createdAt : desc(matches.createdAt))
    .limit(q.limit)
    .offset((q.page - 1) * q.limit);
}

/** The list filter: `live` is every running status (playerveto, mapveto, active). */
function statusFilter(status: MatchListQuery['status']): SQL | undefined {
  if (status === 'live') return inArray(matches.status, [...LIVE_MATCH_STATUSES]);
  return status ? eq(matches.status, status) : undefined;
}

async function playersOf(db: Db, ids: string[]): Promise<Map<string, PlayerRow[]>> {
  const byMatch = new Map<string, PlayerRow[]>();
  if (ids.length === 0) return byMatch;
  const rows = await db.select().from(matchPlayers).where(inArray(matchPlayers.matchId, ids));
  for (const r of rows) {
    const list = byMatch.get(r.matchId) ?? [];
    list.push(r);
    byMatch.set(r.matchId, list);
  }
  return byMatch;
}

/** Every match, or those of one status (`live`: the running ones). */
export async function matchList(db: Db, q: MatchListQuery) {
  const where = statusFilter(q.status);
  // The count and the page at once: one round trip less on a player's page.
  const [[{ total }], rows] = await Promise.all([
    db.select({ total: count() }).from(matches).where(where),
    listPage(db.select().from(matches).where(where).$dynamic(), q),
  ]);
  const players = await playersOf(
    db,
    rows.map((r) => r.id),
  );
  return { docs: rows.map((m) => buildSummary(m, players.get(m.id) ?? [])), totalDocs: Number(total) };
}

/** A player's matches (`GET /api/match/user/:userId`): each with the player's own line. */
export async function userMatchList(db: Db, userId: string, q: MatchListQuery) {
  const where = and(eq(matchPlayers.userId, userId), statusFilter(q.status));
  const [[{ total }], rows] = await Promise.all([
    db
      .select({ total: count() })
      .from(matchPlayers)
      .innerJoin(matches, eq(matches.id, matchPlayers.matchId))
      .where(where),
    listPage(
      db
        .select({ match: matches, player: matchPlayers })
        .from(matchPlayers)
        .innerJoin(matches, eq(matches.id, matchPlayers.matchId))
        .where(where)
        .$dynamic(),
      q,
    ),
  ]);
  const players = await playersOf(
    db,
    rows.map((r) => r.match.id),
  );
  return {
    docs: rows.map(({ match, player }) => ({
      ...buildSummary(match, players.get(match.id) ?? []),
      player: {
        team: player.team,
        // A leaver lost, whatever the score (docs/contract.md §4).
        victory:
          match.status !== 'finished'
            ? null
            : player.leftAt !== null
              ? false
              : match.winner !== 'draw' && match.winner !== null
                ? match.winner === player.team
                : null,
        kills: player.kills,
        deaths: player.deaths,
        assists: player.assists,
        eloBefore: player.eloBefore,
        eloAfter: player.eloAfter,
      },
    })),
    totalDocs: Number(total),
  };
}
