import { bigint, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * OpenID response nonces already used for a Steam login, shared by every instance: a replayed
 * assertion is refused whichever instance it reaches. Rows older than twice the nonce's validity
 * are deleted as new ones arrive.
 */
export const openidNonces = pgTable('openid_nonces', {
  nonce: text('nonce').primaryKey(),
  seenAt: bigint('seen_at', { mode: 'number' }).notNull(),
});
