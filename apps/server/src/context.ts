/**
 * What every module gets: configuration, the database, tokens, the clock and the real-time hub.
 * Tests build the same context with their own database and clock.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Database, Db } from './db/client';
import type { EventBus } from './events';
import type { Scheduler } from './jobs/scheduler';
import type { Tokens } from './modules/auth/tokens';
import type { Mailer } from './modules/mail/mailer';
import type { VoiceServer } from './modules/voice/types';
import type { Realtime } from './realtime/hub';

export interface Clock {
  now(): number;
}
export const systemClock: Clock = { now: () => Date.now() };

export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  tokens: Tokens;
  clock: Clock;
  realtime: Realtime;
  /** In-process domain events between modules. */
  bus: EventBus;
  /** Persisted deadlines: modules register their job kinds and schedule jobs here (jobs/). */
  jobs: Scheduler;
  /** Outgoing e-mail: SMTP (SMTP_URL) or the dev outbox (modules/mail). */
  mailer: Mailer;
  /** The voice server: TeamSpeak ServerQuery (TEAMSPEAK_HOST) or the simulator (modules/voice). */
  voice: VoiceServer;
  /** The app's pino logger (Fastify's), for work outside a request: jobs, deliveries, hooks. */
  log: FastifyBaseLogger;
  /** Web build version, served at /version.json. */
  version: string;
}
