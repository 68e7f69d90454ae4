/**
 * The match lists: `GET /api/match` (every match, or the running ones) and a player's matches
 * (`GET /api/match/user/:userId`), newest first, a page at a time, each match with its players.
 *
 * One query per page: the page's matches, each with its roster as one JSON array built by
 * PostgreSQL (a correlated subquery on match_players' primary key), and the count of every match
 * that qualifies as a window over the same rows. Three queries had read the count, the page and
 * then the hundred player rows of a page of ten; Drizzle maps each column of each row on its own
 * (`mapResultRow`), and that mapping, the query building and the round trips were most of the
 * page's cost (bench/RESULTS.md, issue 20 target 3).
 */
import { LIVE_MATCH_STATUSES, type MatchListQuery } from '@openpug/shared';
import { and, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { matches, matchPlayers } from './schema';
import { buildSummary, type RosterRow } from './state';

/** The match's players as `RosterRow`s (state.ts), built by PostgreSQL; `[]` for none. */
const roster = sql<RosterRow[]>`(
  SELECT coalesce(json_agg(json_build_object('userId', p.user_id, 'name', p.name,
    'avatar', p.avatar, 'elo', p.elo, 'steamId', p.steam_id, 'reliability', p.reliability,
    'team', p.team, 'pickNo', p.pick_no, 'captain', p.captain, 'replacedAt', p.replaced_at)), '[]'::json)
  FROM ${matchPlayers} p WHERE p.match_id = ${matches.id})`;

/** How many rows the query matches before its LIMIT (a window over the same rows). */
const totalRows = sql<number>`count(*) over ()`.mapWith(Number);

/** What a summary reads of a match row (state.ts `SummaryMatchRow`), and its roster. */
const summaryColumns = {
  id: matches.id,
  status: matches.status,
  createdAt: matches.createdAt,
  finishedAt: matches.finishedAt,
  mapKey: matches.mapKey,
  mapName: matches.mapName,
  scoreOne: matches.scoreOne,
  scoreTwo: matches.scoreTwo,
  winner: matches.winner,
  teamOneName: matches.teamOneName,
  teamTwoName: matches.teamTwoName,
  roster,
};

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

/**
 * The count of a page without rows (asked past the end): the window has no row to ride on, so it
 * is asked on its own. Page 1 without rows has nothing to count.
 */
async function totalOf(
  rows: readonly { total: number }[],
  q: MatchListQuery,
  countAll: () => Promise<{ total: number }[]>,
): Promise<number> {
  if (rows.length > 0) return rows[0].total;
  return q.page === 1 ? 0 : (await countAll())[0].total;
}

/** Every match, or those of one status (`live`: the running ones). */
export async function matchList(db: Db, q: MatchListQuery) {
  const where = statusFilter(q.status);
  const rows = await listPage(
    db
      .select({ ...summaryColumns, total: totalRows })
      .from(matches)
      .where(where)
      .$dynamic(),
    q,
  );
  const totalDocs = await totalOf(rows, q, () => db.select({ total: count() }).from(matches).where(where));
  return { docs: rows.map((m) => buildSummary(m, m.roster)), totalDocs };
}

/** A player's matches (`GET /api/match/user/:userId`): each with the player's own line. */
export async function userMatchList(db: Db, userId: string, q: MatchListQuery) {
  const where = and(eq(matchPlayers.userId, userId), statusFilter(q.status));
  const rows = await listPage(
    db
      .select({
        match: summaryColumns,
        total: totalRows,
        player: {
          team: matchPlayers.team,
          leftAt: matchPlayers.leftAt,
          kills: matchPlayers.kills,
          deaths: matchPlayers.deaths,
          assists: matchPlayers.assists,
          eloBefore: matchPlayers.eloBefore,
          eloAfter: matchPlayers.eloAfter,
        },
      })
      .from(matchPlayers)
      .innerJoin(matches, eq(matches.id, matchPlayers.matchId))
      .where(where)
      .$dynamic(),
    q,
  );
  const totalDocs = await totalOf(rows, q, () =>
    db
      .select({ total: count() })
      .from(matchPlayers)
      .innerJoin(matches, eq(matches.id, matchPlayers.matchId))
      .where(where),
  );
  return {
    docs: rows.map(({ match, player }) => ({
      ...buildSummary(match, match.roster),
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
    totalDocs,
  };
}
