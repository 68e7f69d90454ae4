import { type MapInfo, type MatchCancelReason, matchStatuses, type TeamKey } from '@openpug/shared';
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
} from 'drizzle-orm/pg-core';

/**
 * Matches: the room state machine (playerveto → mapveto → active → finished | cancelled; the
 * transitions and the stages of `active` are in lifecycle.ts), the
 * players with their per-match stats and Elo before/after, per-round stats (highlights), the
 * game events already applied (duplicates are ignored) and the stored map pool.
 */
export const matches = pgTable(
  'matches',
  {
    id: text('id').primaryKey(),
    status: text('status', { enum: matchStatuses }).notNull(),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    finishedAt: bigint('finished_at', { mode: 'number' }),
    teamOneName: text('team_one_name').notNull(),
    teamTwoName: text('team_two_name').notNull(),
    turn: text('turn', { enum: ['teamOne', 'teamTwo'] }),
    deadline: bigint('deadline', { mode: 'number' }),
    pickIndex: integer('pick_index').notNull().default(0),
    pickOrder: text('pick_order').notNull(),
    mapPool: jsonb('map_pool').$type<MapInfo[]>().notNull(),
    bans: jsonb('bans').$type<{ mapKey: string; team: TeamKey }[]>().notNull().default([]),
    mapKey: text('map_key'),
    mapName: text('map_name'),
    provider: text('provider'),
    serverConnect: text('server_connect'),
    serverGotv: text('server_gotv'),
    /** Bearer secret the game server sends with its events (webhook). */
    serverSecret: text('server_secret'),
    liveAt: bigint('live_at', { mode: 'number' }),
    /** Team one's win probability when the match went live (Elo logistic; the admins' calibration). */
    winProbability: doublePrecision('win_probability'),
    round: integer('round').notNull().default(0),
    scoreOne: integer('score_one').notNull().default(0),
    scoreTwo: integer('score_two').notNull().default(0),
    winner: text('winner', { enum: ['teamOne', 'teamTwo', 'draw'] }),
    cancelReason: text('cancel_reason').$type<MatchCancelReason>(),
  },
  (t) => [index('matches_status_idx').on(t.status), index('matches_created_idx').on(t.createdAt)],
);

export const matchPlayers = pgTable(
  'match_players',
  {
    // Checked at the commit (DEFERRABLE INITIALLY DEFERRED, migration 0028; Drizzle's schema has
    // no word for it): the queue sends a burst's matches and rosters together (writeMatches).
    matchId: text('match_id')
      .notNull()
      .references(() => matches.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    /** null while still in the pick pool. */
    team: text('team', { enum: ['teamOne', 'teamTwo'] }),
    captain: boolean('captain').notNull().default(false),
    /** 0 for captains, then 1..8 in pick order. */
    pickNo: integer('pick_no'),
    name: text('name').notNull(),
    avatar: text('avatar'),
    steamId: text('steam_id'),
    /** Elo when the match was created (shown in the room, drives captains and auto-picks). */
    elo: integer('elo').notNull(),
    eloBefore: integer('elo_before'),
    eloAfter: integer('elo_after'),
    kills: integer('kills').notNull().default(0),
    deaths: integer('deaths').notNull().default(0),
    assists: integer('assists').notNull().default(0),
    damage: integer('damage').notNull().default(0),
    headshots: integer('headshots').notNull().default(0),
    /** Rounds whose round_end listed the player on the server (the 80 % rule, docs/contract.md §4). */
    roundsPresent: integer('rounds_present').notNull().default(0),
    /** When the player was judged a leaver of the live match (gone for LEAVER_GRACE_MS). */
    leftAt: bigint('left_at', { mode: 'number' }),
    /** When a substitute took this leaver's slot: the row stays for the result and the history. */
    replacedAt: bigint('replaced_at', { mode: 'number' }),
    /** The player's reliability (percent) when the match was created, shown in the draft; null: no history. */
    reliability: integer('reliability'),
  },
  (t) => [primaryKey({ columns: [t.matchId, t.userId] }), index('match_players_user_idx').on(t.userId)],
);

export interface RoundPlayerStats {
  userId: string;
  kills: number;
  deaths: number;
  assists: number;
  damage: number;
  headshots: number;
}

/** One row per played round: the score after it and each player's numbers in that round. */
export const matchRounds = pgTable(
  'match_rounds',
  {
    matchId: text('match_id')
      .notNull()
      .references(() => matches.id, { onDelete: 'cascade' }),
    round: integer('round').notNull(),
    scoreOne: integer('score_one').notNull(),
    scoreTwo: integer('score_two').notNull(),
    winner: text('winner', { enum: ['teamOne', 'teamTwo'] }),
    players: jsonb('players').$type<RoundPlayerStats[]>().notNull(),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.matchId, t.round] })],
);

/** Game events already applied, so a repeated event (same id / round) changes nothing. */
export const matchEvents = pgTable(
  'match_events',
  {
    matchId: text('match_id')
      .notNull()
      .references(() => matches.id, { onDelete: 'cascade' }),
    eventKey: text('event_key').notNull(),
    receivedAt: bigint('received_at', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.matchId, t.eventKey] })],
);

/** The map pool (seeded with the CS2 Active Duty maps; the admin area edits it later). */
export const maps = pgTable('maps', {
  key: text('key').primaryKey(),
  name: text('name').notNull(),
  active: boolean('active').notNull().default(true),
  sortOrder: integer('sort_order').notNull().default(0),
});
