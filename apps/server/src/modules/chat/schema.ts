import { bigint, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/**
 * Chat: each product user's Matrix account (password random and encrypted with a key derived from
 * the JWT secret; the access token is what login returns), and the rooms the product owns
 * (the global room, one room per match).
 */
export const chatAccounts = pgTable('chat_accounts', {
  /** Product user id, or `system` for the bot that owns product rooms. */
  userId: text('user_id').primaryKey(),
  matrixUserId: text('matrix_user_id').notNull(),
  passwordEnc: text('password_enc').notNull(),
  accessToken: text('access_token').notNull(),
  deviceId: text('device_id').notNull(),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
});

export const chatRooms = pgTable(
  'chat_rooms',
  {
    kind: text('kind', { enum: ['global', 'match'] }).notNull(),
    /** `global`, or the match id. */
    key: text('key').notNull(),
    roomId: text('room_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.key] })],
);
