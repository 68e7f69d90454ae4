import { DEFAULT_BANNER, DEFAULT_SOUND, ELO_DEFAULT, ROLES } from '@openpug/shared';
import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Accounts: one row per player, with the Profile fields of docs/contract.md §3. Other modules keep their own
 * tables and reference users.id; the accounts module owns writes to this table (other modules
 * change a user through its service functions).
 */
export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    email: text('email').unique(),
    name: text('name'),
    passwordHash: text('password_hash'),
    role: text('role', { enum: ROLES }).notNull().default('USER'),
    verified: boolean('verified').notNull().default(false),
    /**
     * The role has been decided (by the ADMIN_EMAILS seed, an admin or the admin CLI): from then
     * on ADMIN_EMAILS no longer touches this account, so a demotion sticks.
     */
    roleDecided: boolean('role_decided').notNull().default(false),
    locale: text('locale').notNull().default('en'),
    avatar: text('avatar'),
    steamId: text('steam_id').unique(),
    csgoId: text('csgo_id'),
    steamUrl: text('steam_url'),
    teamSpeakId: text('team_speak_id').unique(),
    /** The voice identity's nickname when it was linked (ServerQuery client_nickname), for reading. */
    teamSpeakName: text('team_speak_name'),
    phone: text('phone'),
    whatsAppEnabled: boolean('whats_app_enabled').notNull().default(false),
    discordId: text('discord_id').unique(),
    sound: text('sound').notNull().default(DEFAULT_SOUND),
    banner: text('banner').notNull().default(DEFAULT_BANNER),
    unlockedBanners: jsonb('unlocked_banners').$type<string[]>().notNull().default([DEFAULT_BANNER]),
    unseenDropsCount: integer('unseen_drops_count').notNull().default(0),
    elo: integer('elo').notNull().default(ELO_DEFAULT),
    failedLogins: integer('failed_logins').notNull().default(0),
    blockedUntil: timestamp('blocked_until', { withTimezone: true }),
    /**
     * Session generation: every session token carries the generation it was issued at, and only
     * tokens of the current one are valid. A password change or reset bumps it, which signs out
     * every session issued before (modules/auth/tokens.ts).
     */
    sessionGeneration: integer('session_generation').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('users_elo_idx').on(t.elo), index('users_name_idx').on(t.name)],
);

/**
 * One-time links sent by e-mail: e-mail verification (also after an e-mail change) and password
 * reset. Only the SHA-256 of the secret id is stored; `email` is the address the link was sent to
 * (a verification only counts while it is still the account's address).
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    idHash: text('id_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['verify', 'reset'] }).notNull(),
    email: text('email').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('account_tokens_user_idx').on(t.userId)],
);

/**
 * A sign-up waiting for its e-mail to be confirmed (docs/contract.md §4): the account is only
 * created when the link is opened, so a sign-up answers the same whether or not the address
 * already has an account, and logging in before confirming fails the same way as for an address
 * nobody signed up with. Only the SHA-256 of the link's secret id is stored.
 */
export const pendingSignups = pgTable(
  'pending_signups',
  {
    idHash: text('id_hash').primaryKey(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash').notNull(),
    locale: text('locale').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('pending_signups_email_idx').on(t.email)],
);

/** The pending voice-server link of a user: the code the bot sent (HMAC only), its expiry and tries. */
export const voiceLinkCodes = pgTable('voice_link_codes', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  teamSpeakId: text('team_speak_id').notNull(),
  codeHash: text('code_hash').notNull(),
  attempts: integer('attempts').notNull().default(0),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * Per-IP rate-limit windows (one row per bucket and IP, the current one-minute window): in the
 * database so every instance counts against the same limit.
 */
export const rateLimitWindows = pgTable('rate_limit_windows', {
  key: text('key').primaryKey(),
  windowStart: bigint('window_start', { mode: 'number' }).notNull(),
  count: integer('count').notNull(),
});
