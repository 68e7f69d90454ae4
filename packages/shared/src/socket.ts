import { z } from 'zod';
import type { ErrorKey } from './errors';

/**
 * Socket.IO contract (path /socket). Each feature adds its events here so server and web share
 * one typed map. Payload schemas validate what clients send.
 */
export const SOCKET_PATH = '/socket';

export const authenticatePayloadSchema = z.object({ key: z.string().min(1) });
export type AuthenticatePayload = z.infer<typeof authenticatePayloadSchema>;

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

export interface ClientToServerEvents {
  authenticate: (payload: AuthenticatePayload) => void;
  logout: () => void;
}
