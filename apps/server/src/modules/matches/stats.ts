/**
 * Per-user match history figures for cards and profiles: `recentResults` (last five W/L, newest
 * first) and `playerSummary` (matches, wins, kills, deaths, last results). Only finished matches
 * count.
 */
import { and, eq, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { executeRows } from '../../db/client';
import { matches, matchPlayers } from './schema';

/**
 * The last five results of the user whose id is `userId` (a value, or an outer statement's
 * column: the user card reads them with the user's row), newest first. A leaver lost, whatever
 * the score.
 */
export function recentResultsColumn(userId: SQLWrapper | string): SQL<('W' | 'L')[]> {
  // Aliased and qualified: in a one-table select drizzle names the outer columns unqualified.
  return sql<
    ('W' | 'L')[]
  >`(SELECT coalesce(json_agg(latest.result ORDER BY latest.finished_at DESC), '[]'::json)
    FROM (
      SELECT CASE WHEN mp.left_at IS NULL AND m.winner = mp.team THEN 'W' ELSE 'L' END AS result, m.finished_at
      FROM ${matchPlayers} mp JOIN ${matches} m ON m.id = mp.match_id
      WHERE mp.user_id = ${userId} AND m.status = 'finished'
      ORDER BY m.finished_at DESC
      LIMIT 5
    ) latest)`;
}

export async function recentResults(ctx: Pick<AppContext, 'db'>, userId: string): Promise<('W' | 'L')[]> {
  const [row] = await executeRows<{ results: ('W' | 'L')[] }>(
    ctx.db,
    sql`SELECT ${recentResultsColumn(userId)} AS results`,
  );
  return row?.results ?? [];
}

export interface PlayerSummary {
  matches: number;
  wins: number;
  kills: number;
  deaths: number;
  lastResults: ('W' | 'L')[];
}

export async function playerSummary(ctx: Pick<AppContext, 'db'>, userId: string): Promise<PlayerSummary> {
  const [row] = await ctx.db
    .select({
      matches: sql<number>`count(*)::int`,
      wins: sql<number>`count(*) FILTER (WHERE ${matches.winner} = ${matchPlayers.team} AND ${matchPlayers.leftAt} IS NULL)::int`,
      kills: sql<number>`coalesce(sum(${matchPlayers.kills}), 0)::int`,
      deaths: sql<number>`coalesce(sum(${matchPlayers.deaths}), 0)::int`,
    })
    .from(matchPlayers)
    .innerJoin(matches, eq(matches.id, matchPlayers.matchId))
    .where(and(eq(matchPlayers.userId, userId), eq(matches.status, 'finished')));
  return {
    matches: Number(row?.matches ?? 0),
    wins: Number(row?.wins ?? 0),
    kills: Number(row?.kills ?? 0),
    deaths: Number(row?.deaths ?? 0),
    lastResults: await recentResults(ctx, userId),
  };
}
