import { z } from 'zod';
import type { ErrorKey } from './errors';
import { socialChannelPayloadSchema } from './friends';
import {
  matchMessageSchema,
  matchRoomPayloadSchema,
  substituteAcceptSchema,
  substituteRequestSchema,
} from './matches';
import { queueMessageSchema } from './queue';

/**
 * Socket.IO contract (path /socket, docs/contract.md §7). Client → server: every event name is tied
 * to the zod schema of its payload in `clientEvents` below; the server hub registers handlers by
 * these names only and validates with these schemas, the web emits with their input types. Server
 * → client: each feature declares its events in `ServerToClientEvents` beside its payload types.
 */
export const authenticatePayloadSchema = z.object({ key: z.string().min(1) });
export type AuthenticatePayload = z.infer<typeof authenticatePayloadSchema>;

/** Every event a client may send, with the schema of its payload. Nothing else is answered. */
export const clientEvents = {
  authenticate: authenticatePayloadSchema,
  /** No payload. */
  logout: z.undefined(),
  'queue-message': queueMessageSchema,
  'join-match': matchRoomPayloadSchema,
  'leave-match': matchRoomPayloadSchema,
  'match-message': matchMessageSchema,
  'substitute-accept': substituteAcceptSchema,
  'substitute-request': substituteRequestSchema,
  'join-social': socialChannelPayloadSchema,
  'leave-social': socialChannelPayloadSchema,
} as const satisfies Record<string, z.ZodType>;

export type ClientEventSchemas = typeof clientEvents;
export type ClientEvent = keyof ClientEventSchemas;
/** The sign-in handshake, answered by the hub itself (with events, not acks). */
export const handshakeEvents = ['authenticate', 'logout'] as const satisfies readonly ClientEvent[];
export type HandshakeEvent = (typeof handshakeEvents)[number];
/** The events feature modules handle; each is answered through its ack. */
export type FeatureEvent = Exclude<ClientEvent, HandshakeEvent>;
/** What a client sends with `E` (the schema's input; the handler gets its output). */
export type ClientEventPayload<E extends ClientEvent> = z.input<ClientEventSchemas[E]>;

/** The ack of a feature event: the handler's result, or the catalogue key of the refusal. */
export type SocketReply = { ok: true; data?: unknown } | { ok: false; msg: ErrorKey };

export const authenticatedPayloadSchema = z.object({ userId: z.string() });

export interface ServerToClientEvents {
  authenticated: (payload: { userId: string }) => void;
  unauthorized: (payload: { msg: string }) => void;
  /** A refused client event that came without an ack callback: the event's name and the key. */
  SOCKET_ERROR: (payload: { event: string; msg: ErrorKey }) => void;
  PUBLIC_QUEUE_UPDATE: (payload: { count: number }) => void;
  /**
   * This instance is shutting down: send nothing more on this connection, wait for the acks
   * still owed, then drop the transport and reconnect (to another instance behind the proxy).
   */
  'server-draining': () => void;
}

/** Server → client: each event's payload (the interface above, as data). */
export type ServerEvent = keyof ServerToClientEvents;
export type ServerEventPayload<E extends ServerEvent> = Parameters<ServerToClientEvents[E]>[0];

/** Client → server in Socket.IO's form, derived from `clientEvents`. */
export type ClientToServerEvents = {
  authenticate: (payload: AuthenticatePayload) => void;
  logout: () => void;
} & {
  [E in FeatureEvent]: (payload: ClientEventPayload<E>, ack?: (reply: SocketReply) => void) => void;
};
