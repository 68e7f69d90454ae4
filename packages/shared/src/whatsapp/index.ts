/**
 * WhatsApp contract (issue 8; server module `whatsapp`): linking a number with a code, the opt-in
 * and the delivery status.
 */
import { z } from 'zod';

/** International number in E.164: '+', country code, up to 15 digits in total. */
export const E164_PATTERN = /^\+[1-9]\d{6,14}$/;
export const phoneSchema = z
  .string('MISSING')
  .transform((s) => s.replace(/[\s()-]/g, ''))
  .pipe(z.string().regex(E164_PATTERN, 'PHONE_IS_NOT_VALID'));

export const WHATSAPP_CODE_LENGTH = 4;
export const linkWhatsAppBodySchema = z.object({ phone: phoneSchema });
export type LinkWhatsAppBody = z.infer<typeof linkWhatsAppBodySchema>;
export const whatsAppCodeBodySchema = z.object({
  phone: phoneSchema,
  code: z.string('MISSING').regex(/^\d{4}$/, 'INVALID_INPUT'),
});
export type WhatsAppCodeBody = z.infer<typeof whatsAppCodeBodySchema>;
/** PATCH /api/profile/whatsAppEnabled: without a body it toggles. */
export const whatsAppEnabledBodySchema = z.object({ whatsAppEnabled: z.boolean().optional() }).nullish();
export const whatsAppEnabledResponseSchema = z.object({ whatsAppEnabled: z.boolean() });
/**
 * GET /api/profile/whatsAppStatus. `paused`: WhatsApp reported that it could not deliver to the
 * linked number (e.g. error 131026 or 131047); nothing is sent until the number is linked again.
 */
export const whatsAppStatusResponseSchema = z.object({
  linked: z.boolean(),
  enabled: z.boolean(),
  paused: z.boolean(),
  failure: z.object({ errorCode: z.number().int().nullable(), failedAt: z.number() }).nullable(),
});
export type WhatsAppStatus = z.infer<typeof whatsAppStatusResponseSchema>;
