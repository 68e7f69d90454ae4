import { z } from 'zod';

/**
 * Dev tools contract (server module `dev`, served only with the dev tools): the outbox of
 * messages the app would have sent (written by `mail`), the simulated voice identity.
 */

export const OUTBOX_CHANNELS = ['email', 'voice', 'whatsapp', 'push', 'discord'] as const;
export type OutboxChannel = (typeof OUTBOX_CHANNELS)[number];
export const outboxMessageSchema = z.object({
  _id: z.string(),
  channel: z.enum(OUTBOX_CHANNELS),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  createdAt: z.number().int(),
});
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;
export const outboxQuerySchema = z.object({ to: z.string().trim().min(1).max(320).optional() });
export const outboxResponseSchema = z.object({ docs: z.array(outboxMessageSchema) });
export const devVoiceIdentityBodySchema = z.object({ name: z.string().trim().min(1, 'IS_EMPTY').max(64) });
