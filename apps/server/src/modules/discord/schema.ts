import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema';

/** One-time Discord link codes (SHA-256 of the code; used once, short-lived). */
export const discordLinkCodes = pgTable(
  'discord_link_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('discord_link_codes_user_idx').on(t.userId)],
);

/**
 * Leases: one row per job that only one instance of the deployment may do at a time (`name`, e.g.
 * `discord-gateway`). `holder` is the instance id, `expires_at` when others may take over
 * (lease.ts: taken and renewed with one conditional upsert, deleted on release).
 */
export const leases = pgTable('leases', {
  name: text('name').primaryKey(),
  holder: text('holder').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * The last Discord DM to a player that Discord refused for good because the player does not accept
 * DMs (JSON error code 50007): shown in Settings; cleared by the next delivered DM, a re-link or an
 * unlink. `discord_id` is the account the DM went to.
 */
export const discordDmFailures = pgTable('discord_dm_failures', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  discordId: text('discord_id').notNull(),
  code: integer('code').notNull(),
  failedAt: timestamp('failed_at', { withTimezone: true }).notNull(),
});

/**
 * The accept-phase DM with Accept/Decline buttons sent to a linked player (bot.ts, queue-bot.ts):
 * which Discord message to edit when the phase ends (matched, declined, timed out). Rows go when
 * the edit is done; a phase's rows are few (at most ten).
 */
export const discordAcceptDms = pgTable(
  'discord_accept_dms',
  {
    phaseId: text('phase_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channelId: text('channel_id').notNull(),
    messageId: text('message_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.phaseId, t.userId] })],
);
