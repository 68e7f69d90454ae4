/**
 * What every module gets: configuration, the database, tokens, the clock and the real-time hub.
 * Tests build the same context with their own database and clock.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Database, Db } from './db/client';
import type { EventBus } from './events';
import type { Scheduler } from './jobs/scheduler';
import type { Priority } from './lib/priority';
import type { AccountsModuleState, UserRow } from './modules/accounts/service';
import type { ArenaModuleState } from './modules/arena/service';
import type { SessionTokens } from './modules/auth';
import type { ChatModuleState } from './modules/chat/service';
import type { DiscordModuleState } from './modules/discord/service';
import type { DropsModuleState } from './modules/drops/service';
import type { GameserversModuleState } from './modules/gameservers/service';
import type { InsightsModuleState } from './modules/insights/service';
import type { Mailer } from './modules/mail/service';
import type { MetricsModuleState } from './modules/metrics';
import type { MobileModuleState } from './modules/mobile';
import type { NotifyModuleState } from './modules/notify';
import { initialPresenceState, type PresenceModuleState } from './modules/presence/service';
import type { QueueModuleState } from './modules/queue/service';
import type { QueueAlertsModuleState } from './modules/queue-alerts/service';
import type { RankingModuleState } from './modules/ranking/service';
import type { VoiceModuleState, VoiceServer } from './modules/voice';
import type { WhatsAppModuleState } from './modules/whatsapp/service';
import type { Realtime } from './realtime/hub';

export interface Clock {
  now(): number;
}
export const systemClock: Clock = { now: () => Date.now() };

export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  /** Checked against the account's session (withSessionCheck): `verifySession` gives its row. */
  tokens: SessionTokens<UserRow>;
  clock: Clock;
  realtime: Realtime;
  /** In-process domain events between modules. */
  bus: EventBus;
  /** Persisted deadlines: modules register their job kinds and schedule jobs here (jobs/). */
  jobs: Scheduler;
  /** Urgent work (the queue's transactions) and work that waits for it to stop (lib/priority.ts). */
  priority: Priority;
  /** Outgoing e-mail: SMTP (SMTP_URL) or the dev outbox (modules/mail). */
  mailer: Mailer;
  /** The voice server: TeamSpeak ServerQuery (TEAMSPEAK_HOST) or the simulator (modules/voice). */
  voice: VoiceServer;
  /** The app's pino logger (Fastify's), for work outside a request: jobs, deliveries, hooks. */
  log: FastifyBaseLogger;
  /** Web build version, served at /version.json. */
  version: string;
  /**
   * What each module keeps for this app: one typed slot per module, its type declared by the
   * module's entry (docs/architecture.md, "Module state"). A module never keeps per-app state in
   * a module-level variable or a WeakMap keyed by the context.
   */
  state: ModuleState;
}

/** Every module's per-app state; a module without state has no slot. */
export interface ModuleState {
  accounts: AccountsModuleState;
  arena: ArenaModuleState;
  chat: ChatModuleState;
  discord: DiscordModuleState;
  drops: DropsModuleState;
  gameservers: GameserversModuleState;
  insights: InsightsModuleState;
  metrics: MetricsModuleState;
  mobile: MobileModuleState;
  notify: NotifyModuleState;
  presence: PresenceModuleState;
  queue: QueueModuleState;
  queueAlerts: QueueAlertsModuleState;
  ranking: RankingModuleState;
  voice: VoiceModuleState;
  whatsapp: WhatsAppModuleState;
}

/**
 * The empty state of a new app (buildApp). Each module fills its slot when it registers or on
 * first use (a lazily created provider); tests put their fakes in through the module's setters.
 */
export function createModuleState(): ModuleState {
  return {
    accounts: {},
    arena: { polling: false },
    chat: {},
    discord: {},
    drops: {},
    gameservers: {},
    insights: { lastPruneAt: 0 },
    metrics: {},
    mobile: {},
    notify: { pending: new Set() },
    presence: initialPresenceState(),
    queue: {},
    queueAlerts: {},
    ranking: {},
    voice: { syncing: new Set() },
    whatsapp: {},
  };
}
