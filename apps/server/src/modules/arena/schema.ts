import { bigint, boolean, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * Arena (warm-up) servers admins list (docs/contract.md §3 "In Arena"), with what the last poll
 * found. A deleted server keeps its row (`deleted_at`, password blanked): a table that ever had a
 * row is never seeded from ARENA_SERVERS again.
 */
export const arenaServers = pgTable('arena_servers', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /** `host:port` players connect to. */
  address: text('address').notNull(),
  /** `host:port` where RCON answers (a CS2 server takes RCON on its game port, TCP). */
  rconAddress: text('rcon_address').notNull(),
  rconPassword: text('rcon_password').notNull(),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  deletedAt: bigint('deleted_at', { mode: 'number' }),
  /** Whether the last poll got an answer. */
  online: boolean('online').notNull().default(false),
  /** Human players on it at the last poll. */
  players: integer('players').notNull().default(0),
  /** Ids of the openpug users among them (their linked Steam account): these are "In Arena". */
  userIds: jsonb('user_ids').$type<string[]>().notNull().default([]),
  polledAt: bigint('polled_at', { mode: 'number' }),
});
