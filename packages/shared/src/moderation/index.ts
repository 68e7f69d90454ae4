import { z } from 'zod';
import { idSchema } from '../ids';
import { pagedSchema } from '../list';

/**
 * Community safety: sanctions (bans and mutes) and the audit log of admin actions.
 *
 * A ban keeps a player out of the queue, the chat and friend requests; a mute keeps them out of
 * the chat only. Sanctions are rows with a start, an end (null = permanent) and an optional early
 * lift: whether one is active is read from the data at the time of asking, never from a timer.
 */
export const sanctionKinds = ['ban', 'mute'] as const;
export type SanctionKind = (typeof sanctionKinds)[number];

/** Ten years: the longest timed sanction (longer is "permanent"). */
export const MAX_SANCTION_MINUTES = 10 * 365 * 24 * 60;
export const MAX_REASON_LENGTH = 500;

export const reasonSchema = z.string().trim().min(1, 'MISSING').max(MAX_REASON_LENGTH, 'INVALID_INPUT');

/** POST /api/admin/users/:id/sanctions. `minutes` absent = permanent. */
export const sanctionCreateSchema = z.object({
  kind: z.enum(sanctionKinds),
  minutes: z.number().int().min(1).max(MAX_SANCTION_MINUTES).optional(),
  reason: reasonSchema,
});
export type SanctionCreate = z.infer<typeof sanctionCreateSchema>;

/** POST /api/admin/sanctions/:id/lift. */
export const sanctionLiftSchema = z.object({ reason: reasonSchema });
export type SanctionLift = z.infer<typeof sanctionLiftSchema>;

/** One sanction as admins see it (GET /api/admin/users/:id/sanctions). Times are epoch ms. */
export const sanctionSchema = z.object({
  _id: z.string(),
  userId: z.string(),
  kind: z.enum(sanctionKinds),
  reason: z.string(),
  startsAt: z.number(),
  /** null = permanent. */
  endsAt: z.number().nullable(),
  liftedAt: z.number().nullable(),
  liftReason: z.string().nullable(),
  createdBy: z.object({ _id: z.string(), name: z.string().nullable() }),
  liftedBy: z.object({ _id: z.string(), name: z.string().nullable() }).nullable(),
  /** Not lifted, started and not yet ended. */
  active: z.boolean(),
});
export type Sanction = z.infer<typeof sanctionSchema>;
export const sanctionListSchema = z.object({ docs: z.array(sanctionSchema) });
export type SanctionList = z.infer<typeof sanctionListSchema>;

/** What the sanctioned player is told: the reason and the end (null = permanent). */
export const activeSanctionSchema = z.object({
  reason: z.string(),
  endsAt: z.number().nullable(),
});
export type ActiveSanction = z.infer<typeof activeSanctionSchema>;

/** GET /api/moderation/me and PRIVATE_MODERATION_UPDATE: the caller's running ban and mute. */
export const moderationStateSchema = z.object({
  ban: activeSanctionSchema.nullable(),
  mute: activeSanctionSchema.nullable(),
});
export type ModerationState = z.infer<typeof moderationStateSchema>;

/** Every admin action the audit log records. */
export const auditActions = [
  'sanction.create',
  'sanction.lift',
  'user.role',
  'match.cancel',
  'match.move',
  'match.swap',
  'match.result',
  'match.correct',
  'match.void',
  'cooldown.lift',
  'drop.create',
  'drop.update',
  'drop.delete',
  'report.resolve',
  'chat.moderate',
  'about.update',
  'season.update',
] as const;
export type AuditAction = (typeof auditActions)[number];
export const auditTargetTypes = ['user', 'match', 'drop', 'page'] as const;
export type AuditTargetType = (typeof auditTargetTypes)[number];

/** One audit entry (GET /api/admin/audit). `before` / `after` are the changed state as JSON. */
export const auditEntrySchema = z.object({
  _id: z.string(),
  createdAt: z.number(),
  actor: z.object({ _id: z.string(), name: z.string().nullable() }),
  action: z.enum(auditActions),
  targetType: z.enum(auditTargetTypes),
  targetId: z.string(),
  /** The target user's name (user targets only). */
  targetName: z.string().nullable(),
  reason: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditPageSchema = pagedSchema(auditEntrySchema);
export type AuditPage = z.infer<typeof auditPageSchema>;

/** GET /api/admin/audit: filters (all optional, combined) and paging; newest first. */
export const auditQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(25),
  actor: idSchema.optional(),
  action: z.enum(auditActions).optional(),
  /** A user, match or drop id. */
  target: idSchema.optional(),
  /** Epoch ms, inclusive. */
  from: z.coerce.number().int().min(0).optional(),
  /** Epoch ms, exclusive. */
  to: z.coerce.number().int().min(0).optional(),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;
export type AuditQueryInput = z.input<typeof auditQuerySchema>;

declare module '../socket' {
  interface ServerToClientEvents {
    /** The receiver's ban or mute started, ended or was lifted. */
    PRIVATE_MODERATION_UPDATE: (payload: ModerationState) => void;
  }
}
