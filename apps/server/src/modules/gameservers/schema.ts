import { sql } from 'drizzle-orm';
import { bigint, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Game-server leases of the MatchZy provider: which pool server (`host:port` of RCON) plays
 * which match. A server is busy while its lease has no `releasedAt`; the partial unique index
 * lets only one open lease per server exist, so two instances (or a restart in the middle of an
 * allocation) can never book the same server twice. `gameMatchId` is the numeric match id MatchZy
 * works with (its `matchid` is an integer); events carrying it are mapped back to `matchId`.
 */
export const gameServerLeases = pgTable(
  'game_server_leases',
  {
    gameMatchId: serial('game_match_id').primaryKey(),
    matchId: text('match_id').notNull().unique(),
    server: text('server').notNull(),
    allocatedAt: bigint('allocated_at', { mode: 'number' }).notNull(),
    releasedAt: bigint('released_at', { mode: 'number' }),
  },
  (t) => [uniqueIndex('game_server_leases_busy_idx').on(t.server).where(sql`released_at IS NULL`)],
);
export type GameServerLease = typeof gameServerLeases.$inferSelect;
