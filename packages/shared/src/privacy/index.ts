import { z } from 'zod';
import { profileSchema } from '../accounts';
import { playerStatsSchema, scoreSchema } from '../matches';

/**
 * GDPR self-service (community safety, item 7): a player downloads everything stored about them
 * (`GET /api/privacy/export`) and deletes their account (`POST /api/privacy/delete`).
 *
 * Other players appear in an export only by their public id and name (friends, requests, match
 * line-ups), never with any private field. Deleting erases the account row and everything hanging
 * off it; matches stay, with the player shown as `DELETED_PLAYER_NAME`.
 */

/** The name matches keep for a deleted player. */
export const DELETED_PLAYER_NAME = 'Deleted player';

/** Another player as an export shows them: public id and name only. */
export const exportPersonSchema = z.object({ _id: z.string(), name: z.string().nullable() });
export type ExportPerson = z.infer<typeof exportPersonSchema>;

const iso = z.string();

export const privacyExportSchema = z.object({
  /** Format version of this document. */
  format: z.literal(1),
  exportedAt: iso,
  profile: profileSchema.extend({
    createdAt: iso,
    hasPassword: z.boolean(),
    failedLogins: z.number().int(),
    blockedUntil: iso.nullable(),
  }),
  linkedAccounts: z.object({
    steam: z
      .object({ steamId: z.string(), csgoId: z.string().nullable(), steamUrl: z.string().nullable() })
      .nullable(),
    teamSpeakId: z.string().nullable(),
    discordId: z.string().nullable(),
    whatsApp: z.object({ phone: z.string(), enabled: z.boolean() }).nullable(),
    matrixUserId: z.string().nullable(),
  }),
  friends: z.array(exportPersonSchema.extend({ since: iso.nullable() })),
  friendRequests: z.object({
    received: z.array(z.object({ _id: z.string(), from: exportPersonSchema, createdAt: iso })),
    sent: z.array(z.object({ _id: z.string(), to: exportPersonSchema, createdAt: iso })),
  }),
  queue: z.object({
    queuedSince: iso.nullable(),
    cooldowns: z.array(
      z.object({
        kind: z.enum(['miss', 'leave']),
        offence: z.number().int(),
        createdAt: iso,
        endsAt: iso,
        liftedAt: iso.nullable(),
      }),
    ),
  }),
  sanctions: z.array(
    z.object({
      kind: z.enum(['ban', 'mute']),
      reason: z.string(),
      startsAt: iso,
      endsAt: iso.nullable(),
      liftedAt: iso.nullable(),
      liftReason: z.string().nullable(),
    }),
  ),
  matches: z.array(
    z.object({
      _id: z.string(),
      status: z.string(),
      createdAt: iso,
      finishedAt: iso.nullable(),
      map: z.string().nullable(),
      score: scoreSchema,
      winner: z.string().nullable(),
      team: z.string().nullable(),
      captain: z.boolean(),
      // The figures and Elo as the match room shows them.
      stats: playerStatsSchema.pick({
        kills: true,
        deaths: true,
        assists: true,
        damage: true,
        headshots: true,
      }),
      ...playerStatsSchema.pick({ eloBefore: true, eloAfter: true }).shape,
      /** Everyone else in the match: public id, name and team. */
      players: z.array(exportPersonSchema.extend({ team: z.string().nullable() })),
    }),
  ),
  eloHistory: z.array(
    z.object({ matchId: z.string(), at: iso, before: z.number().int(), after: z.number().int() }),
  ),
  drops: z.array(
    z.object({
      _id: z.string(),
      name: z.string(),
      rarity: z.string(),
      matchId: z.string().nullable(),
      awardedAt: iso,
      seen: z.boolean(),
      redeemed: z.boolean(),
    }),
  ),
  notifications: z.object({
    sound: z.string(),
    whatsAppEnabled: z.boolean(),
    /** Game alerts go to Discord by direct message while a Discord account is linked. */
    discordLinked: z.boolean(),
    pushSubscriptions: z.array(z.object({ endpoint: z.string(), createdAt: iso })),
    /** "Notify me at N/10" (queue alerts): null when never set. */
    queueAlert: z
      .object({
        threshold: z.number().int().nullable(),
        channels: z.array(z.string()),
        quietHours: z.object({ from: z.number().int(), to: z.number().int() }).nullable(),
        timeZone: z.string(),
      })
      .nullable(),
  }),
  chat: z.object({
    matrixUserId: z.string().nullable(),
    messages: z.array(
      z.object({
        roomId: z.string(),
        eventId: z.string(),
        sentAt: iso,
        type: z.string(),
        content: z.record(z.string(), z.unknown()),
      }),
    ),
  }),
});
export type PrivacyExport = z.infer<typeof privacyExportSchema>;

/**
 * How this account confirms its deletion: its current password or, for an account without one
 * (Steam sign-in only), a fresh ticket from the Steam sign-in popup for the linked Steam account.
 */
export const privacyConfirmMethods = ['password', 'steam'] as const;
export type PrivacyConfirmMethod = (typeof privacyConfirmMethods)[number];

/** GET /api/privacy. */
export const privacyStatusSchema = z.object({ confirmWith: z.enum(privacyConfirmMethods) });
export type PrivacyStatus = z.infer<typeof privacyStatusSchema>;

/** POST /api/privacy/delete: one of the two, as `confirmWith` says. */
export const privacyDeleteBodySchema = z.object({
  password: z.string().min(1, 'IS_EMPTY').max(256, 'INVALID_INPUT').optional(),
  steamTicket: z.string().min(1, 'IS_EMPTY').max(2000, 'BAD_TOKEN').optional(),
});
export type PrivacyDeleteBody = z.infer<typeof privacyDeleteBodySchema>;

export const privacyDeleteResponseSchema = z.object({ ok: z.literal(true) });
