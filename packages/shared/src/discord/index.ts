/**
 * Discord contract (issue 8; server module `discord`): link codes, the link status, the bot's
 * `/queue` command and the accept-phase DM's buttons.
 */
import { z } from 'zod';

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
