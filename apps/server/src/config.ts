/**
 * Every environment variable the server reads, parsed once with zod. Names and defaults are the
 * ones in docs/architecture.md and the README's table; nothing else reads process.env.
 */
import path from 'node:path';
import { ACCEPT_COUNTDOWN_MS, ELO_LOSS, ELO_WIN } from '@openpug/shared';
import { z } from 'zod';
import { type ArenaSeed, parseArenaServers } from './modules/arena';
import { type Cs2Server, parseServerPool } from './modules/gameservers';

const bool = z
  .enum(['1', '0', 'true', 'false', 'on', 'off', 'yes', 'no'])
  .transform((v) => ['1', 'true', 'on', 'yes'].includes(v));
const ms = z.coerce.number().int().min(0);
/** `5,15,60`: a comma-separated list of positive minutes. */
const minutesList = z
  .string()
  .transform((v) => v.split(',').map((m) => Number(m.trim())))
  .pipe(z.array(z.number().positive()).min(1));

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /**
   * Which peers may tell the client's address in X-Forwarded-For (Fastify trustProxy): addresses,
   * CIDRs or proxy-addr names, comma-separated; a number of proxy hops; or a yes/no word like the
   * other switches (true trusts every peer, false none). The default trusts
   * proxies on loopback and private networks only, so a client on the internet cannot forge its
   * address (per-IP rate limits).
   */
  TRUST_PROXY: z
    .string()
    .default('loopback,linklocal,uniquelocal')
    .transform((v): string | number | boolean => {
      if (/^\d+$/.test(v)) return Number(v); // hops
      const word = bool.safeParse(v);
      return word.success ? word.data : v;
    }),
  /**
   * On SIGTERM, how long the instance keeps answering after it told its sockets to move
   * (`server-draining`): clients finish what they sent, then reconnect to another instance.
   * Ends early once every client has gone. 0 cuts at once (tests).
   */
  DRAIN_NOTICE_MS: ms.default(2_000),
  PUBLIC_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  REDIS_URL: z.string().optional(),
  /** Channel prefix of the Socket.IO Redis adapter; instances of one deployment share it. */
  REDIS_PREFIX: z.string().default('openpug'),
  /** Signs session tokens; at least 32 characters. Unset outside production: generated once into DATA_DIR. */
  JWT_SECRET: z.string().optional(),
  /** Synapse as openpug reaches it, admin API included (an internal address, e.g. http://127.0.0.1:8008). */
  MATRIX_HOMESERVER_URL: z.string().url().optional(),
  /**
   * Synapse as browsers reach it (e.g. PUBLIC_URL, whose /_matrix the proxy sends to Synapse);
   * unset: MATRIX_HOMESERVER_URL. Keeps /_synapse/admin off the public address.
   */
  MATRIX_PUBLIC_URL: z.string().url().optional(),
  MATRIX_SHARED_SECRET: z.string().optional(),
  MATRIX_SERVER_NAME: z.string().optional(),
  /** Embedded homeserver upload limit (m.upload.size); scripts/synapse.sh sets Synapse to the same 10 MiB. */
  MATRIX_MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(10 * 1024 * 1024),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('openpug <no-reply@openpug.local>'),
  ADMIN_EMAILS: z.string().default(''),
  DEV_TOOLS: bool.optional(),
  ACCEPT_TIMEOUT_MS: ms.default(ACCEPT_COUNTDOWN_MS),
  /** How long a queued player may be without an open tab (a reload, a flaky network) before leaving the queue. */
  QUEUE_DISCONNECT_GRACE_MS: ms.default(15_000),
  /** With REDIS_URL: how often one instance sets players whose instance died offline (ms). */
  PRESENCE_SWEEP_MS: ms.default(60_000),
  /** Queue cooldown per offence within the window, in minutes (the last one repeats). */
  COOLDOWN_MISS_MINUTES: minutesList.default([5, 15, 60, 1440]),
  COOLDOWN_MISS_WINDOW_DAYS: z.coerce.number().positive().default(7),
  COOLDOWN_LEAVE_MINUTES: minutesList.default([30, 120, 1440, 10080]),
  COOLDOWN_LEAVE_WINDOW_DAYS: z.coerce.number().positive().default(30),
  /**
   * Leaderboard snapshot: how often a read checks for changes made on other instances (0: rebuild
   * for every read), and how old it may get before names and avatars are read again.
   */
  RANKING_REFRESH_MS: ms.default(2_000),
  RANKING_FULL_REFRESH_MS: ms.default(300_000),
  PICK_TIMEOUT_MS: ms.default(30_000),
  BAN_TIMEOUT_MS: ms.default(30_000),
  SIM_ROUND_MS: ms.default(20_000),
  /** How long a match may wait for its game server to go live (players connected, ready) before it is cancelled; 0 = no limit. */
  MATCH_LIVE_TIMEOUT_MS: ms.default(15 * 60_000),
  /**
   * Once the game server is ready, how long every rostered player has to be on it; a player who is
   * not is a no-show (leave cooldown) and their slot is offered to queued players. 0 = no limit.
   */
  MATCH_CONNECT_TIMEOUT_MS: ms.default(5 * 60_000),
  /** How often the game server is asked who is on it while a match waits for its players (ms). */
  MATCH_CONNECT_POLL_MS: ms.default(5_000),
  /** How long a no-show's slot is offered to queued players before the match is cancelled (NO_SHOW). */
  SUBSTITUTE_OFFER_TIMEOUT_MS: ms.default(2 * 60_000),
  /**
   * How long a player may be off the server of a live match (missing from its round_end events)
   * before they are a leaver: leave cooldown, the loss, and their captain may ask for a substitute.
   */
  LEAVER_GRACE_MS: ms.default(5 * 60_000),
  /** Simulator: how long after the server is ready (or a substitute joins) its players are on it. */
  SIM_CONNECT_MS: ms.default(0),
  /**
   * How long a live match may go without a game event (its server crashed or hangs) before it is
   * cancelled; longer than any round, half-time or technical pause. 0 = no limit.
   */
  MATCH_STALE_TIMEOUT_MS: ms.default(20 * 60_000),
  /** Captain pick order for the 8 picks: A = team one (lower-rated captain), B = team two. */
  PICK_ORDER: z
    .string()
    .regex(/^[AB]{8}$/, 'PICK_ORDER must be 8 letters A/B')
    .refine((v) => [...v].filter((c) => c === 'A').length === 4, 'PICK_ORDER must give each team 4 picks')
    .default('ABBAABBA'),
  /** Elo won by each winner / lost by each loser of a match. */
  ELO_WIN: z.coerce.number().int().min(0).default(ELO_WIN),
  ELO_LOSS: z.coerce.number().int().min(0).default(ELO_LOSS),
  /** Finished matches before a player is ranked (placement); until then unranked, not on the leaderboard. */
  PLACEMENT_MATCHES: z.coerce.number().int().min(0).max(100).default(5),
  /** Comma-separated map keys for the veto; unset → the active maps of the stored map pool. */
  MATCH_MAP_POOL: z.string().optional(),
  /** Drop engine defaults until an admin changes them: on/off and the time between two rolls. */
  DROPS_ENABLED: bool.default(true),
  DROP_INTERVAL_MS: ms.default(600_000),
  /** Chance of the first roll after a drop; each roll without a drop adds it again (capped at 1). */
  DROP_BASE_CHANCE: z.coerce.number().min(0).max(1).default(0.2),
  /** How often each instance looks for persisted deadlines armed elsewhere (ms). */
  JOBS_POLL_MS: ms.default(1_000),
  /** Game-server provider: the embedded simulator (default) or CS2 servers running MatchZy. */
  GAME_SERVER_PROVIDER: z.enum(['simulator', 'matchzy']).default('simulator'),
  /** The MatchZy provider's CS2 servers: comma-separated `rcon://:password@host:port[?connect=…&gotv=…]`. */
  CS2_SERVERS: z.string().optional(),
  /** RCON connect/login and per-command limit (ms). */
  CS2_RCON_TIMEOUT_MS: ms.default(5_000),
  /**
   * Arena (warm-up) servers stored on first start, in CS2_SERVERS' format plus an optional
   * `name=`; afterwards admins keep the list in the admin area.
   */
  ARENA_SERVERS: z.string().optional(),
  /** How often one instance asks every arena server who is on it (RCON status_json, ms). */
  ARENA_POLL_MS: ms.default(15_000),
  /**
   * How long a MatchZy server stays booked after its match's result is in, so that what MatchZy
   * posts after the map result (series_end, the last round's stats) is still accepted; MatchZy's
   * series_end frees it earlier (ms).
   */
  CS2_RELEASE_GRACE_MS: ms.default(60_000),
  RATE_LIMIT_PER_MIN: z.coerce.number().int().min(0).default(20),
  /** Steam OpenID 2.0 provider. Unset: Steam itself, or the dev identity provider when dev tools are on. */
  STEAM_OPENID_URL: z.string().url().optional(),
  /** Steam Web API key: avatar via GetPlayerSummaries (optional). */
  STEAM_API_KEY: z.string().optional(),
  STEAM_API_URL: z.string().url().default('https://api.steampowered.com'),
  /** TeamSpeak ServerQuery: set TEAMSPEAK_HOST to use a real server, else the simulated voice server. */
  TEAMSPEAK_HOST: z.string().optional(),
  /**
   * The voice server, when it must be said explicitly: `teamspeak` (needs TEAMSPEAK_HOST) or
   * `simulator` (production refuses the simulated one unless chosen like this, e.g. for a demo).
   * Unset: TeamSpeak when TEAMSPEAK_HOST is set, else the simulator.
   */
  VOICE_SERVER_PROVIDER: z.enum(['simulator', 'teamspeak']).optional(),
  /** ServerQuery transport: raw TCP (TS3 only) or SSH (TS3 >= 3.3 and TS6, which has no raw port). */
  TEAMSPEAK_QUERY_PROTOCOL: z.enum(['raw', 'ssh']).default('raw'),
  /** Unset: 10011 for raw, 10022 for ssh (resolved by the voice module). */
  TEAMSPEAK_QUERY_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** SSH host-key fingerprint to pin (`SHA256:…` as ssh-keygen -lf prints it); unset: the one seen is logged once. */
  TEAMSPEAK_SSH_HOST_KEY: z.string().optional(),
  /** Per-command time-out of ServerQuery; after it the connection is reset. */
  TEAMSPEAK_QUERY_TIMEOUT_MS: z.coerce.number().int().min(100).default(5_000),
  /** openpug's address is in the server's query_ip_allowlist.txt: skip the 10-commands-per-3-s limit. */
  TEAMSPEAK_QUERY_ALLOWLISTED: bool.default(false),
  TEAMSPEAK_USER: z.string().default('serveradmin'),
  TEAMSPEAK_PASSWORD: z.string().default(''),
  TEAMSPEAK_SID: z.coerce.number().int().min(1).default(1),
  TEAMSPEAK_NICKNAME: z.string().default('openpug'),
  TEAMSPEAK_KEEPALIVE_MS: ms.default(180_000),
  /**
   * A channel per team while a match is live, created under this channel (its cid) and deleted
   * after the match; unset: off with TeamSpeak (the simulator always has its own "Matches" channel).
   */
  TEAMSPEAK_CHANNEL_PARENT: z.coerce.number().int().min(1).optional(),
  /** How often a live match's team channels are checked: late joiners moved, members shown (ms). */
  VOICE_CHANNEL_POLL_MS: z.coerce.number().int().min(500).default(5_000),
  /** WhatsApp Business Cloud API: with WHATSAPP_TOKEN and WHATSAPP_PHONE_NUMBER_ID set, messages go out; else the dev outbox. */
  WHATSAPP_TOKEN: z.string().optional(),
  WHATSAPP_PHONE_NUMBER_ID: z.string().optional(),
  WHATSAPP_API_URL: z.string().url().default('https://graph.facebook.com/v21.0'),
  /**
   * Approved message templates (Meta sends business-initiated messages only as templates): names
   * and the template language code per openpug locale. CODE is an authentication template with a
   * copy-code button.
   */
  WHATSAPP_TEMPLATE_GAME_FOUND: z.string().default('openpug_game_found'),
  WHATSAPP_TEMPLATE_MATCHED: z.string().default('openpug_matched'),
  WHATSAPP_TEMPLATE_QUEUE_ALERT: z.string().default('openpug_queue_alert'),
  WHATSAPP_TEMPLATE_CODE: z.string().default('openpug_code'),
  WHATSAPP_LANGUAGE_EN: z.string().default('en_US'),
  WHATSAPP_LANGUAGE_DE: z.string().default('de'),
  /** Status webhook /api/whatsapp/webhook: the verify token of the GET handshake and the app secret signing each POST. */
  WHATSAPP_VERIFY_TOKEN: z.string().optional(),
  WHATSAPP_APP_SECRET: z.string().optional(),
  /** Notification delivery (WhatsApp, Discord, push): attempts per message and the pause before a retry (ms, doubled each time). */
  NOTIFY_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  NOTIFY_RETRY_MS: ms.default(2_000),
  /** Discord: the bot (discord.js) starts when DISCORD_BOT_TOKEN is set; DISCORD_BOT_SECRET authenticates POST /api/discord/link. */
  DISCORD_BOT_TOKEN: z.string().optional(),
  DISCORD_BOT_SECRET: z.string().min(16).optional(),
  /** Discord's HTTP API (DMs from every instance, the gateway's REST calls); tests point it at a fake. */
  DISCORD_API_URL: z.string().url().default('https://discord.com/api'),
  /** One gateway session per deployment: its holder renews a database lease every third of this; another instance takes over after it. */
  DISCORD_LEASE_MS: z.coerce.number().int().min(300).default(15_000),
  /** Web Push VAPID keys; unset → generated once and stored in the database (mobile/push.ts). */
  VAPID_PUBLIC_KEY: z.string().optional(),
  VAPID_PRIVATE_KEY: z.string().optional(),
  /** Unset: PUBLIC_URL when https, else mailto:admin@<its host> (mobile/push.ts vapidSubject). */
  VAPID_SUBJECT: z.string().optional(),
  /**
   * `host:port` pairs that user-given URLs (push endpoints) may reach although they are plain
   * http or not public: only for local fakes in tests. Everything else must be a public https host.
   */
  OUTBOUND_ALLOW: z.string().default(''),
  WEB_DIST: z.string().optional(),
  /** Bearer token that lets a non-loopback client read `GET /metrics` (Prometheus); unset: loopback only. */
  METRICS_TOKEN: z.string().min(16).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends Omit<Env, 'PUBLIC_URL' | 'DEV_TOOLS' | 'ADMIN_EMAILS' | 'OUTBOUND_ALLOW'> {
  PUBLIC_URL: string;
  /** OUTBOUND_ALLOW parsed. */
  OUTBOUND_ALLOW: string[];
  DEV_TOOLS: boolean;
  ADMIN_EMAILS: string[];
  /** CS2_SERVERS parsed (empty unless set). */
  cs2Servers: Cs2Server[];
  /** ARENA_SERVERS parsed (empty unless set). */
  arenaSeed: ArenaSeed[];
  /** Absolute data directory. */
  dataDir: string;
}

/** Refused configuration: one line per problem in `problems` (and in the message, joined by newlines). */
export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string | string[]) {
    const list = typeof problems === 'string' ? [problems] : problems;
    super(list.join('\n'));
    this.name = 'ConfigError';
    this.problems = list;
  }
}

const MIN_JWT_SECRET = 32;

/** A URL whose host only this machine or its private network can reach. */
function isLocalUrl(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)/.test(host) ||
    host === '::1' ||
    !host.includes('.')
  );
}

/**
 * What production refuses (NODE_ENV=production): one line per problem, so an operator sees all of
 * them at once. Demo choices (the simulators) are allowed only when asked for by name.
 */
function productionProblems(e: Env, given: Record<string, string | undefined>): string[] {
  const problems: string[] = [];
  if (e.DEV_TOOLS === true)
    problems.push(
      'DEV_TOOLS must not be on in production (the dev outbox and fake identities would be public)',
    );
  if (!e.JWT_SECRET)
    problems.push(`JWT_SECRET is required in production (at least ${MIN_JWT_SECRET} random characters)`);
  if (!e.PUBLIC_URL) problems.push("PUBLIC_URL is required in production (the site's https:// address)");
  else if (!e.PUBLIC_URL.toLowerCase().startsWith('https://'))
    problems.push("PUBLIC_URL must be the site's https:// address in production, not http://");
  if (e.REDIS_URL && !e.DATABASE_URL)
    problems.push(
      'REDIS_URL needs DATABASE_URL in production: the embedded PGlite database serves a single instance only',
    );
  if (e.MATRIX_HOMESERVER_URL && !e.MATRIX_PUBLIC_URL && isLocalUrl(e.MATRIX_HOMESERVER_URL))
    problems.push(
      'MATRIX_HOMESERVER_URL is a local address that browsers cannot reach: set MATRIX_PUBLIC_URL (e.g. PUBLIC_URL, with /_matrix proxied to Synapse)',
    );
  if (e.REDIS_URL && !e.MATRIX_HOMESERVER_URL)
    problems.push(
      'REDIS_URL needs MATRIX_HOMESERVER_URL in production: the embedded chat server is single-instance only',
    );
  if (!e.SMTP_URL)
    problems.push(
      'SMTP_URL is required in production (without it account e-mail would only reach the dev outbox)',
    );
  if (e.OUTBOUND_ALLOW.trim())
    problems.push(
      'OUTBOUND_ALLOW must not be set in production (it lets user-given URLs reach private or plain-http hosts)',
    );
  if (given.GAME_SERVER_PROVIDER === undefined)
    problems.push(
      'GAME_SERVER_PROVIDER must be set in production: matchzy (with CS2_SERVERS), or simulator explicitly for a demo',
    );
  if (!e.TEAMSPEAK_HOST && e.VOICE_SERVER_PROVIDER !== 'simulator')
    problems.push(
      'TEAMSPEAK_HOST must be set in production (a TeamSpeak server), or VOICE_SERVER_PROVIDER=simulator explicitly for a demo',
    );
  return problems;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty strings mean "unset" so `FOO= npm start` behaves like leaving FOO out.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map(
        (issue) => `Invalid environment variable ${issue.path.join('.')}: ${issue.message}`,
      ),
    );
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  const problems: string[] = [];
  let cs2Servers: Cs2Server[] = [];
  try {
    cs2Servers = parseServerPool(e.CS2_SERVERS ?? '');
  } catch (err) {
    problems.push(`Invalid environment variable CS2_SERVERS: ${(err as Error).message}`);
  }
  let arenaSeed: ArenaSeed[] = [];
  try {
    arenaSeed = parseArenaServers(e.ARENA_SERVERS ?? '');
  } catch (err) {
    problems.push(`Invalid environment variable ARENA_SERVERS: ${(err as Error).message}`);
  }
  if (e.GAME_SERVER_PROVIDER === 'matchzy' && cs2Servers.length === 0 && problems.length === 0)
    problems.push('GAME_SERVER_PROVIDER=matchzy needs CS2_SERVERS (at least one server)');
  // The simulator sends an event every SIM_ROUND_MS: at that pace or slower its games would be stale.
  if (
    e.GAME_SERVER_PROVIDER === 'simulator' &&
    e.MATCH_STALE_TIMEOUT_MS > 0 &&
    e.SIM_ROUND_MS >= e.MATCH_STALE_TIMEOUT_MS
  )
    problems.push('SIM_ROUND_MS must be shorter than MATCH_STALE_TIMEOUT_MS (or set it to 0)');
  if (e.JWT_SECRET !== undefined && e.JWT_SECRET.length < MIN_JWT_SECRET)
    problems.push(`JWT_SECRET must be at least ${MIN_JWT_SECRET} characters (it signs every session)`);
  if (e.VOICE_SERVER_PROVIDER === 'teamspeak' && !e.TEAMSPEAK_HOST)
    problems.push('VOICE_SERVER_PROVIDER=teamspeak needs TEAMSPEAK_HOST');
  if (e.VOICE_SERVER_PROVIDER === 'simulator' && e.TEAMSPEAK_HOST)
    problems.push('VOICE_SERVER_PROVIDER=simulator contradicts TEAMSPEAK_HOST: unset one of them');
  if (production) problems.push(...productionProblems(e, cleaned));
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    ...e,
    PUBLIC_URL: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    // Dev tools (outbox, fake identities) are on by default outside production; production refuses them above.
    DEV_TOOLS: production ? false : (e.DEV_TOOLS ?? true),
    ADMIN_EMAILS: e.ADMIN_EMAILS.split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
    OUTBOUND_ALLOW: e.OUTBOUND_ALLOW.split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
    cs2Servers,
    arenaSeed,
    dataDir: path.resolve(e.DATA_DIR),
  };
}
