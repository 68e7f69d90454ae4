/**
 * What every part of the embedded homeserver gets: the product database, its server name, the
 * clock, the stream counter, the sync notifier and typing state.
 */
import type { Db } from '../db/client';
import type { EventReport } from './moderation';
import type { Notifier, Stream, Typing } from './stream';

export interface Homeserver {
  db: Db;
  serverName: string;
  now(): number;
  stream: Stream;
  notifier: Notifier;
  typing: Typing;
  /** Upload limit in bytes (`m.upload.size`). */
  maxUploadBytes: number;
  /** Key for /_synapse/admin/v1/register HMACs. */
  sharedSecret: string;
  /** Single-use registration nonces → expiry. */
  nonces: Map<string, number>;
  /** Where event reports go (the product's admin reports queue). */
  reportSink(report: EventReport): Promise<void>;
  /** Set while the app shuts down: long-polls return at once. */
  closing: boolean;
}
