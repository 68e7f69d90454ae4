import { bigint, bigserial, index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * Sanctions: one row per ban or mute. Data, not timers: a sanction is active while it is not
 * lifted, has started and has not ended (`endsAt` null = permanent), read at the time of asking.
 */
export const sanctions = pgTable(
  'sanctions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    kind: text('kind', { enum: ['ban', 'mute'] }).notNull(),
    reason: text('reason').notNull(),
    createdBy: text('created_by').notNull(),
    startsAt: bigint('starts_at', { mode: 'number' }).notNull(),
    endsAt: bigint('ends_at', { mode: 'number' }),
    liftedAt: bigint('lifted_at', { mode: 'number' }),
    liftedBy: text('lifted_by'),
    liftReason: text('lift_reason'),
  },
  (t) => [index('sanctions_user_idx').on(t.userId, t.kind)],
);

/**
 * The audit log: one row per admin action, written in the action's transaction where the action
 * runs in one of ours. `seq` orders entries written within the same millisecond.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: text('id').primaryKey(),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    actorId: text('actor_id').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type', { enum: ['user', 'match', 'drop', 'page'] }).notNull(),
    targetId: text('target_id').notNull(),
    reason: text('reason'),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (t) => [
    index('audit_log_created_idx').on(t.createdAt),
    index('audit_log_actor_idx').on(t.actorId, t.createdAt),
    index('audit_log_target_idx').on(t.targetId, t.createdAt),
    index('audit_log_action_idx').on(t.action, t.createdAt),
  ],
);
