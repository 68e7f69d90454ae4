/**
 * Reaching players away from the tab (issue 8): WhatsApp linking, Discord link codes, one-time
 * mobile login links and Web Push subscriptions.
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

/** Discord: POST /api/profile/discord/generate-link-code → {data: code, expiresAt}. */
export const discordLinkCodeResponseSchema = z.object({ data: z.string(), expiresAt: z.number() });
export type DiscordLinkCode = z.infer<typeof discordLinkCodeResponseSchema>;
export const discordRedeemBodySchema = z.object({
  code: z.string('MISSING').trim().min(1, 'MISSING').max(32, 'INVALID_INPUT'),
  discordId: z.string('MISSING').regex(/^\d{5,25}$/, 'INVALID_INPUT'),
});
export const discordUnlinkResponseSchema = z.object({ unlinked: z.boolean() });
/**
 * GET /api/profile/discord: the linked account and, when Discord refused the last DM to it because
 * the player does not accept direct messages (Discord error 50007), when that was (ms); null once a
 * DM went through again or after a re-link.
 */
export const discordStatusResponseSchema = z.object({
  discordId: z.string().nullable(),
  dmFailedAt: z.number().nullable(),
});
export type DiscordStatus = z.infer<typeof discordStatusResponseSchema>;

/** The Discord bot's `/queue <subcommand>` (docs/contract.md §4, "The queue in Discord"). */
export const DISCORD_QUEUE_SUBCOMMANDS = ['join', 'leave', 'status'] as const;
export const discordQueueSubcommandSchema = z.enum(DISCORD_QUEUE_SUBCOMMANDS, 'INVALID_INPUT');
export type DiscordQueueSubcommand = z.infer<typeof discordQueueSubcommandSchema>;

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/**
 * `custom_id` of the Accept/Decline buttons in the accept-phase DM:
 * `queue:<accept|decline>:<phaseId>:<userId>` (77 characters; Discord allows 1..100). It comes back
 * in the button's interaction from Discord, so it is parsed like any other input.
 */
export const discordAcceptButtonSchema = z
  .string('MISSING')
  .max(100, 'INVALID_INPUT')
  .transform((id, c) => {
    const [prefix, action, phaseId, userId, ...rest] = id.split(':');
    if (
      prefix !== 'queue' ||
      (action !== 'accept' && action !== 'decline') ||
      !uuid.test(phaseId ?? '') ||
      !uuid.test(userId ?? '') ||
      rest.length > 0
    ) {
      c.addIssue({ code: 'custom', message: 'INVALID_INPUT' });
      return z.NEVER;
    }
    return { action, phaseId, userId } as { action: 'accept' | 'decline'; phaseId: string; userId: string };
  });
export type DiscordAcceptButton = z.infer<typeof discordAcceptButtonSchema>;
export const discordAcceptButtonId = (b: DiscordAcceptButton) => `queue:${b.action}:${b.phaseId}:${b.userId}`;

/** Mobile one-time login link (what the QR code encodes). */
export const mobileLinkResponseSchema = z.object({ url: z.string(), expiresAt: z.number() });
export type MobileLink = z.infer<typeof mobileLinkResponseSchema>;
export const mobileExchangeSchema = z.object({
  u: z.string('MISSING').min(1, 'MISSING').max(100, 'INVALID_INPUT'),
  t: z.string('MISSING').min(10, 'INVALID_INPUT').max(200, 'INVALID_INPUT'),
});

/** Web Push. */
export const pushSubscriptionSchema = z.object({
  endpoint: z.url('INVALID_INPUT').max(2000, 'INVALID_INPUT'),
  keys: z.object({
    p256dh: z.string('MISSING').min(10, 'INVALID_INPUT').max(200, 'INVALID_INPUT'),
    auth: z.string('MISSING').min(8, 'INVALID_INPUT').max(100, 'INVALID_INPUT'),
  }),
});
export type PushSubscriptionBody = z.infer<typeof pushSubscriptionSchema>;
export const pushUnsubscribeSchema = z.object({ endpoint: z.string('MISSING').max(2000, 'INVALID_INPUT') });
export const vapidKeyResponseSchema = z.object({ publicKey: z.string() });

/** Payload of a 'game found' push (the service worker shows it). */
export interface GameFoundPush {
  type: 'game-found';
  title: string;
  body: string;
  url: string;
  deadline: number;
}

/** The user's queue membership changed (any device): other tabs and the phone re-read GET /api/queue. */
export interface QueueSyncPayload {
  inQueue: boolean;
}
declare module './socket' {
  interface ServerToClientEvents {
    PRIVATE_QUEUE_SYNC: (p: QueueSyncPayload) => void;
  }
}
