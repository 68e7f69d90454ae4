import { z } from 'zod';

/**
 * Queue and accept phase (docs/contract.md §4 "Queue and match", §7 socket events). The client sends
 * `queue-message {event}`; the server answers with the PUBLIC_/PRIVATE_QUEUE_* events below.
 */
/** `decline` ends the running accept phase at once: the decliner leaves the queue, the rest keep their places. */
export const queueEvents = ['join', 'leave', 'ready', 'decline'] as const;
export const queueMessageSchema = z.object({ event: z.enum(queueEvents) });
export type QueueMessage = z.infer<typeof queueMessageSchema>;

/** One of the ten players of an accept phase. */
export const queuePlayerSchema = z.object({
  userId: z.string(),
  name: z.string(),
  avatar: z.string().nullable(),
  accepted: z.boolean(),
});
export type QueuePlayer = z.infer<typeof queuePlayerSchema>;

/** A player who did not accept in time (PRIVATE_QUEUE_TIMEOUT). */
export const unreadyProfileSchema = z.object({
  userId: z.string(),
  name: z.string(),
  avatar: z.string().nullable(),
});
export type UnreadyProfile = z.infer<typeof unreadyProfileSchema>;

export const queueReadyPayloadSchema = z.object({
  players: z.array(queuePlayerSchema),
  /** Epoch ms at which the accept phase ends. */
  deadline: z.number(),
});
export type QueueReadyPayload = z.infer<typeof queueReadyPayloadSchema>;
export type QueueReadyUpdatePayload = { players: QueuePlayer[] };
export type QueueTimeoutPayload = { type: 'timeout'; unreadyProfiles: UnreadyProfile[] };
export type QueueKickPayload = { type: 'kick' };
export type QueueMatchPayload = { matchId: string };
export type MatchStartPayload = { matchId: string };
export type AdminHelpPayload = { username: string; msg: string; matchId: string };

/** Ack data of a successful `queue-message`. */
export const queueAckSchema = z.object({ inQueue: z.boolean(), count: z.number().int() });
export type QueueAck = z.infer<typeof queueAckSchema>;

/**
 * A queue cooldown: missing an accept phase (declining, letting it run out, leaving during it) or
 * leaving a match escalates within a rolling window (server config COOLDOWN_*). While one runs,
 * joining is refused with QUEUE_COOLDOWN.
 */
export const cooldownKinds = ['miss', 'leave'] as const;
export const cooldownSchema = z.object({
  kind: z.enum(cooldownKinds),
  /** Epoch ms at which the player may queue again. */
  endsAt: z.number(),
  /** Which offence of this kind within the window this is (1 = the first). */
  offence: z.number().int(),
});
export type Cooldown = z.infer<typeof cooldownSchema>;

/** The admin's view of one cooldown (GET /api/admin/users/:id/cooldowns). */
export const cooldownRecordSchema = cooldownSchema.extend({
  createdAt: z.number(),
  liftedAt: z.number().nullable(),
  liftedBy: z.string().nullable(),
});
export const cooldownListSchema = z.object({ docs: z.array(cooldownRecordSchema) });
export const cooldownLiftResponseSchema = z.object({ lifted: z.number().int() });

/** GET /api/queue: the caller's own queue situation (restores the widget after a reload). */
export const queueStateSchema = z.object({
  count: z.number().int(),
  inQueue: z.boolean(),
  /** Epoch ms of joining (the widget's elapsed time); null when not queued. */
  joinedAt: z.number().nullable(),
  /** The running accept phase the caller is part of, if any. */
  phase: queueReadyPayloadSchema.nullable(),
  /** The live match the caller plays in, if any. */
  matchId: z.string().nullable(),
  /** The running cooldown, if any. */
  cooldown: cooldownSchema.nullable(),
});
export type QueueState = z.infer<typeof queueStateSchema>;

declare module '../socket' {
  interface ServerToClientEvents {
    PRIVATE_QUEUE_READY: (payload: QueueReadyPayload) => void;
    PRIVATE_QUEUE_READY_UPDATE: (payload: QueueReadyUpdatePayload) => void;
    PRIVATE_QUEUE_KICK: (payload: QueueKickPayload) => void;
    PRIVATE_QUEUE_TIMEOUT: (payload: QueueTimeoutPayload) => void;
    PRIVATE_QUEUE_MATCH: (payload: QueueMatchPayload) => void;
    PRIVATE_MATCH_START: (payload: MatchStartPayload) => void;
    ADMIN_HELP: (payload: AdminHelpPayload) => void;
    /** A cooldown started for the receiver (or was lifted: null). */
    PRIVATE_QUEUE_COOLDOWN: (payload: Cooldown | null) => void;
  }
}
