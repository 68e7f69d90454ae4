/**
 * Per-user match history figures for cards and profiles: `recentResults` (last five W/L, newest
 * first) and `playerSummary` (matches, wins, kills, deaths, last results). Only finished matches
 * count.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { matches, matchPlayers } from './schema';

export async function recentResults(ctx: Pick<AppContext, 'db'>, userId: string): Promise<('W' | 'L')[]> {
  const rows = await ctx.db
    .select({ team: matchPlayers.team, winner: matches.winner, leftAt: matchPlayers.leftAt })
    .from(matchPlayers)
    .innerJoin(matches, eq(matches.id, matchPlayers.matchId))
    .where(and(eq(matchPlayers.userId, userId), eq(matches.status, 'finished')))
    .orderBy(desc(matches.finishedAt))
    .limit(5);
  // A leaver lost, whatever the score.
  return rows.map((r) => (r.leftAt === null && r.winner !== null && r.winner === r.team ? 'W' : 'L'));
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
