import type { QueueAlertChannel } from '@openpug/shared';
import { bigint, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema';
import { QUEUE_ALERT_INITIAL, QUEUE_ALERT_STATES } from './rules';

/**
 * "Notify me at N/10": one row per player who set it up. `state` is the arming rule of rules.ts
 * (armed → fired → armed), stored so that a restart or a second instance never notifies twice
 * for one rise. `threshold` null: switched off (the channels and quiet hours are kept).
 */
export const queueAlerts = pgTable(
  'queue_alerts',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    threshold: integer('threshold'),
    channels: jsonb('channels').$type<QueueAlertChannel[]>().notNull().default([]),
    quietFrom: integer('quiet_from'),
    quietTo: integer('quiet_to'),
    timeZone: text('time_zone').notNull().default('UTC'),
    state: text('state', { enum: QUEUE_ALERT_STATES }).notNull().default(QUEUE_ALERT_INITIAL),
    firedAt: bigint('fired_at', { mode: 'number' }),
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
  },
  (t) => [index('queue_alerts_state_threshold_idx').on(t.state, t.threshold)],
);
