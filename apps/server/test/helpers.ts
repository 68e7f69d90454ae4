/**
 * Test harness: a real database (PGlite from the migrated template, or a fresh PostgreSQL
 * database when TEST_DB=postgres), the real app built by buildApp, and helpers for users and
 * socket clients. Every test file gets its own database, so files run in parallel safely.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { CreateDropInput } from '@openpug/shared';
import { eq } from 'drizzle-orm';
import { type Socket as ClientSocket, io as ioClient } from 'socket.io-client';
import { inject } from 'vitest';
import { type AppInstance, type BuildOptions, buildApp } from '../src/app';
import { type Config, loadConfig } from '../src/config';
import type { Clock } from '../src/context';
import { type Database, type Db, openPglite, openPostgres } from '../src/db/client';
import { matches, matchPlayers, users } from '../src/db/schema';
import { type After, inTransaction } from '../src/jobs';
import { findUsersByIds } from '../src/modules/accounts/service';
import { createTokens } from '../src/modules/auth/tokens';
import { listOutbox } from '../src/modules/mail/mailer';
import { planMatches, readMatchInputs, writeMatches } from '../src/modules/matches/service';
import { createScratchDatabase } from './scratch-database';

export const usingPostgres = () => process.env.TEST_DB === 'postgres';

export interface TestDatabase extends Database {
  /** Closes and, on PostgreSQL, drops the database. */
  dispose(): Promise<void>;
}

/** A fresh, migrated database for one test file. */
export async function openTestDatabase(): Promise<TestDatabase> {
  if (usingPostgres()) {
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
    const scratch = await createScratchDatabase(adminUrl, 'openpug_t');
    const database = openPostgres(scratch.url);
    await database.migrate();
    return {
      ...database,
      async dispose() {
        await database.close();
        await scratch.drop();
      },
    };
  }
  const template = inject('pgliteTemplate');
  const database = template ? openPglite(undefined, new Blob([readFileSync(template)])) : openPglite();
  if (!template) await database.migrate();
  return { ...database, dispose: () => database.close() };
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: `/tmp/openpug-test-${process.pid}`,
    PORT: '0',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MIN: '0',
    SIM_ROUND_MS: '5',
    // Tests write matches and users straight into the database: the leaderboard reads them anew.
    RANKING_REFRESH_MS: '0',
    // Tests seed players without matches and expect them ranked; placement has its own tests
    // (modules/ranking/placement.test.ts) with the default of 5.
    PLACEMENT_MATCHES: '0',
    // No arena polling unless a test asks for it: its job would fire in every clock advance.
    ARENA_POLL_MS: '0',
    // Test clients do not answer `server-draining`: closing the app cuts them at once.
    DRAIN_NOTICE_MS: '0',
    ...overrides,
  });
}

/** A clock the test moves by hand. */
export function manualClock(
  start = Date.UTC(2026, 10, 21, 12),
): Clock & { advance(ms: number): void; set(t: number): void } {
  let t = start;
  return {
    now: () => t,
    advance(ms) {
      t += ms;
    },
    set(v) {
      t = v;
    },
  };
}

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-signing';

export interface TestApp {
  app: AppInstance;
  database: TestDatabase;
  /** Base URL once `listen()` was called. */
  url: string;
  listen(): Promise<string>;
  close(): Promise<void>;
}

export async function createTestApp(
  options: {
    env?: Record<string, string>;
    clock?: Clock;
    database?: TestDatabase;
    webDist?: string;
    onRoute?: BuildOptions['onRoute'];
  } = {},
): Promise<TestApp> {
  const database = options.database ?? (await openTestDatabase());
  const clock = options.clock ?? { now: () => Date.now() };
  const app = await buildApp(
    {
      config: testConfig(options.env),
      database,
      db: database.db,
      tokens: createTokens(TEST_JWT_SECRET, () => clock.now()),
      clock,
      version: '1.2.3',
    },
    { logger: false, webDist: options.webDist ?? '/nonexistent-web-dist', onRoute: options.onRoute },
  );
  const harness: TestApp = {
    app,
    database,
    url: '',
    async listen() {
      await app.listen({ port: 0, host: '127.0.0.1' });
      harness.url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      return harness.url;
    },
    async close() {
      await app.close();
      if (!options.database) await database.dispose();
    },
  };
  return harness;
}

export interface TestUser {
  id: string;
  name: string;
  email: string;
  token: string;
}

/** Inserts a user directly (no sign-up flow) and returns a valid session token. */
export async function createTestUser(
  app: AppInstance,
  fields: Partial<typeof users.$inferInsert> = {},
): Promise<TestUser> {
  const id = fields.id ?? randomUUID();
  const short = id.slice(0, 8);
  const row = {
    id,
    email: `player-${short}@example.test`,
    name: `player-${short}`,
    verified: true,
    ...fields,
  };
  await app.ctx.db.insert(users).values(row);
  const { token } = await app.ctx.tokens.sign(id);
  return { id, name: row.name ?? '', email: row.email ?? '', token };
}

/**
 * Signs up through the API and opens the mailed link (the dev outbox), as a player does: the
 * account exists from then on. Returns the session answer of `POST /api/verify`.
 */
export async function signUpAndConfirm(
  app: AppInstance,
  body: { name: string; email: string; password: string; confirmPassword?: string; locale?: 'en' | 'de' },
) {
  const res = await app.inject({ method: 'POST', url: '/api/register', payload: body });
  if (res.statusCode !== 202) throw new Error(`sign-up failed: ${res.statusCode} ${res.body}`);
  const [mail] = await listOutbox(app.ctx.db, body.email.trim().toLowerCase());
  const id = /\/verify\/([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1];
  if (!id) throw new Error(`no sign-up link mailed to ${body.email}`);
  const confirmed = await app.inject({ method: 'POST', url: '/api/verify', payload: { id } });
  if (confirmed.statusCode !== 200) throw new Error(`confirming failed: ${confirmed.body}`);
  return { id, ...(confirmed.json().session as { token: string; user: { _id: string }; matrix: unknown }) };
}

/** Inserts a match in `status` with `players` alternating between the teams; returns its id. */
export async function seedMatch(
  app: AppInstance,
  status: 'active' | 'finished',
  players: TestUser[],
): Promise<string> {
  const id = randomUUID();
  await app.ctx.db.insert(matches).values({
    id,
    status,
    createdAt: app.ctx.clock.now(),
    teamOneName: 'team_a',
    teamTwoName: 'team_b',
    pickOrder: 'ABBAABBA',
    mapPool: [],
  });
  await app.ctx.db.insert(matchPlayers).values(
    players.map(
      (p, i) =>
        ({
          matchId: id,
          userId: p.id,
          team: i % 2 ? 'teamTwo' : 'teamOne',
          name: p.name,
          elo: 200,
        }) as const,
    ),
  );
  return id;
}

/**
 * Makes a match for each ten players in the caller's transaction, with the steps the queue's
 * accept batch runs (matches/service.ts: reads, plan, writes); returns their ids in order.
 */
export async function createMatches(
  ctx: AppInstance['ctx'],
  tx: Db,
  after: After,
  rosters: readonly (readonly string[])[],
): Promise<string[]> {
  const users = new Map((await findUsersByIds(tx, rosters.flat())).map((u) => [u.id, u]));
  const inputs = await readMatchInputs(ctx, tx, rosters.flat());
  const planned = planMatches(rosters, users);
  await writeMatches(ctx, tx, after, planned, users, inputs);
  return planned.map((m) => m.id);
}

/** Starts a match the way an accepted queue does (captains, player veto, deadlines); returns its id. */
export function startMatch(app: AppInstance, playerIds: string[]): Promise<string> {
  return inTransaction(
    app.ctx.db,
    async (tx, after) => (await createMatches(app.ctx, tx, after, [playerIds]))[0],
  );
}

/**
 * Unlocks a banner or sound for `player` the way players get one: an admin adds a one-copy drop
 * that unlocks it, and a forced roll (dev tools) awards it to the only player of a live match.
 * The match is finished afterwards so later rolls cannot pick the player again.
 */
export async function unlockByDrop(
  app: AppInstance,
  player: TestUser,
  unlocks: Pick<CreateDropInput, 'unlocksBanner' | 'unlocksSound'>,
): Promise<void> {
  const admin = await createTestUser(app, { role: 'ADMIN' });
  const created = await app.inject({
    method: 'POST',
    url: '/api/drops/',
    headers: bearer(admin.token),
    payload: { name: 'Unlock', image: 'crate', rarity: 'common', amount: 1, ...unlocks },
  });
  if (created.statusCode !== 201) throw new Error(`creating the drop failed: ${created.body}`);
  const matchId = await seedMatch(app, 'active', [player]);
  const rolled = await app.inject({
    method: 'POST',
    url: '/api/drops/engine/roll',
    headers: bearer(admin.token),
    payload: { force: true },
  });
  await app.ctx.db.update(matches).set({ status: 'finished' }).where(eq(matches.id, matchId));
  const award = rolled.json().award as { ownerId: string; dropId: string } | null;
  // Another live match or catalogue item in the same app could take the roll; fail loudly then.
  if (award?.ownerId !== player.id || award.dropId !== created.json()._id)
    throw new Error(`the roll did not award the drop to the player: ${rolled.body}`);
}

/** Authorization header for app.inject. */
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A socket.io client connected to a listening test app; `authenticate` resolves on `authenticated`. */
export async function connectSocket(
  url: string,
  token?: string,
  headers?: Record<string, string>,
): Promise<ClientSocket> {
  const socket = ioClient(url, {
    path: '/socket',
    transports: ['websocket'],
    forceNew: true,
    ...(headers ? { extraHeaders: headers } : {}),
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  if (token) {
    await new Promise<void>((resolve, reject) => {
      socket.once('authenticated', () => resolve());
      socket.once('unauthorized', (e: { msg: string }) => reject(new Error(e.msg)));
      socket.emit('authenticate', { key: token });
    });
  }
  return socket;
}

/** Resolves with the next payload of `event`, or rejects after `ms`. */
export function nextEvent<T = unknown>(socket: ClientSocket, event: string, ms = 5_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${event}`)), ms);
    socket.once(event, (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });
}
