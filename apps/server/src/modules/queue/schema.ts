import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { ACCEPT_PHASE_INITIAL, ACCEPT_PHASE_STATUSES } from './accept-phase';

/** Where a queue place was taken (queue_entries.via). */
export const QUEUE_VIAS = ['web', 'discord'] as const;
export type QueueVia = (typeof QUEUE_VIAS)[number];

/**
 * The queue: one row per queued player. `seq` is the queue order (kept by players who accepted
 * a phase that timed out); `phaseId` is set while the player is in an accept phase. `via` is where
 * the place was taken: `web` (a tab or the phone app; the place goes when the last tab has been
 * gone for the grace period) or `discord` (the bot's /queue join; no tab needed).
 */
export const queueEntries = pgTable(
  'queue_entries',
  {
    userId: text('user_id').primaryKey(),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    joinedAt: bigint('joined_at', { mode: 'number' }).notNull(),
    phaseId: text('phase_id'),
    accepted: boolean('accepted').notNull().default(false),
    via: text('via', { enum: QUEUE_VIAS }).notNull().default('web'),
  },
  (t) => [index('queue_entries_seq_idx').on(t.seq), index('queue_entries_phase_idx').on(t.phaseId)],
);

/** An accept phase: the ten players asked (in queue order) and how it ended (accept-phase.ts). */
export const acceptPhases = pgTable('accept_phases', {
  id: text('id').primaryKey(),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  deadline: bigint('deadline', { mode: 'number' }).notNull(),
  status: text('status', { enum: ACCEPT_PHASE_STATUSES }).notNull().default(ACCEPT_PHASE_INITIAL),
  playerIds: jsonb('player_ids').$type<string[]>().notNull(),
  matchId: text('match_id'),
});

/**
 * Queue cooldowns: one row per offence (a missed accept phase, a left match). Data, not timers,
 * so they survive restarts; an admin may lift one (`liftedAt`), and a lifted one no longer counts
 * towards escalation.
 */
export const queueCooldowns = pgTable(
  'queue_cooldowns',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    kind: text('kind', { enum: ['miss', 'leave'] }).notNull(),
    offence: integer('offence').notNull(),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    endsAt: bigint('ends_at', { mode: 'number' }).notNull(),
    liftedAt: bigint('lifted_at', { mode: 'number' }),
    liftedBy: text('lifted_by'),
  },
  (t) => [index('queue_cooldowns_user_idx').on(t.userId, t.createdAt)],
);
