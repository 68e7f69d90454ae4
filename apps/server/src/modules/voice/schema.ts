import { bigint, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { matches } from '../matches/schema';

/**
 * The TeamSpeak channel of each team of a live match (channels.ts). Stored, not kept in memory,
 * so any instance polls it and a restart finds the channels of matches that ended meanwhile.
 * `members`: user ids seen in the channel at the last poll; `moved`: the client ids (clid) openpug
 * already moved in, so a player who walks out on purpose is not dragged back.
 */
export const voiceChannels = pgTable(
  'voice_channels',
  {
    matchId: text('match_id')
      .notNull()
      .references(() => matches.id, { onDelete: 'cascade' }),
    team: text('team', { enum: ['teamOne', 'teamTwo'] }).notNull(),
    channelId: integer('channel_id').notNull(),
    name: text('name').notNull(),
    members: jsonb('members').$type<string[]>().notNull().default([]),
    moved: jsonb('moved').$type<number[]>().notNull().default([]),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.matchId, t.team] })],
);
