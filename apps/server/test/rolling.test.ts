/**
 * Rolling restart during a live match: two real instances (src/main.ts) on a PostgreSQL cluster
 * and a Redis of this test's own; ten socket bots reach them through a round-robin of the two
 * URLs (as a proxy would) and move to the next URL when their connection is cut. Instance A gets
 * SIGTERM and comes back, then B. Each drains (answers what is running, closes its sockets so
 * clients reconnect, exits 0); the other instance takes over its persisted jobs; the match ends
 * with the seeded simulator's score and the rules' Elo, and no bot ever gets an error or loses an
 * acknowledgement.
 *
 * Needs initdb/pg_ctl and redis-server (CI installs them); skips with a message otherwise.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openPostgres } from '../src/db/client';
import { matches, matchPlayers, users } from '../src/db/schema';
import { createTokens } from '../src/modules/auth/tokens';
import { usingPostgres } from './helpers';
import {
  deploymentEnv,
  expectedSimScore,
  findTools,
  health,
  type Instance,
  type OwnPostgres,
  type OwnRedis,
  skipReasonFor,
  sleep,
  startInstance,
  startPostgres,
  startRedis,
} from './infra';

const tools = findTools();
const skipReason = skipReasonFor('rolling.test.ts', !usingPostgres());

type Reply = { ok: boolean; msg?: string; data?: unknown };

/**
 * A player's client: one socket at a time, to the next URL of the round-robin after a cut. Like
 * the web client (features/socket/socket.ts) it follows `server-draining`: it stops sending,
 * waits for the acks it is owed, then drops the transport and reconnects.
 */
class Bot {
  socket: Socket | null = null;
  ready = false;
  reconnects = 0;
  drainNotices = 0;
  private owed = 0;
  readonly errors: string[] = [];
  private closed = false;
  constructor(
    readonly id: string,
    private readonly token: string,
    private readonly urls: () => string[],
    private next: number,
  ) {}

  connect(): void {
    if (this.closed) return;
    const url = this.urls()[this.next++ % this.urls().length];
    const s = io(url, { path: '/socket', transports: ['websocket'], reconnection: false, forceNew: true });
    this.socket = s;
    s.on('connect', () => s.emit('authenticate', { key: this.token }));
    s.on('authenticated', () => (this.ready = true));
    s.on('unauthorized', (e: { msg: string }) => this.errors.push(`unauthorized ${e.msg}`));
    const retry = () => {
      this.ready = false;
      s.removeAllListeners();
      s.close();
      if (!this.closed) setTimeout(() => this.connect(), 200);
    };
    s.on('disconnect', () => {
      this.reconnects++;
      retry();
    });
    s.on('connect_error', retry);
    s.on('server-draining', async () => {
      this.drainNotices++;
      this.ready = false;
      const giveUpAt = Date.now() + 1_500;
      while (this.owed > 0 && Date.now() < giveUpAt) await sleep(25);
      s.io.engine?.close(); // a lost transport: 'disconnect' → the next URL
    });
  }

  /** Sends once connected and signed in (never into a cut connection); any refusal is an error. */
  async send(event: string, payload: object): Promise<Reply> {
    const until = Date.now() + 20_000;
    while (!this.ready) {
      if (Date.now() > until) throw new Error(`${this.id} never got back`);
      await sleep(20);
    }
    this.owed++;
    try {
      const reply = (await (this.socket as Socket).timeout(10_000).emitWithAck(event, payload)) as Reply;
      if (!reply.ok) this.errors.push(`${event}: ${reply.msg}`);
      return reply;
    } catch {
      this.errors.push(`${event}: no acknowledgement`);
      return { ok: false, msg: 'NO_ACK' };
    } finally {
      this.owed--;
    }
  }

  close(): void {
    this.closed = true;
    this.socket?.close();
  }
}

describe.skipIf(!!skipReason || usingPostgres())('rolling restart of two instances', () => {
  let pg: OwnPostgres;
  let redis: OwnRedis;
  let database: Database;
  const instances: Instance[] = [];
  const bots: Bot[] = [];
  let env: Record<string, string>;

  beforeAll(async () => {
    if ('missing' in tools) return;
    pg = await startPostgres(tools.pgBin);
    redis = await startRedis(tools.redisServer);
    env = deploymentEnv(pg.url, redis.url, {
      PICK_TIMEOUT_MS: '300',
      BAN_TIMEOUT_MS: '300',
      // Rounds of 2 s: the match (13+ rounds) outlasts both restarts even on a loaded machine,
      // and 2.5 s down always spans a round.
      SIM_ROUND_MS: '2000',
    });
    instances.push(await startInstance(env));
    instances.push(await startInstance(env));
    database = openPostgres(pg.url);
  }, 120_000);

  afterAll(async () => {
    for (const b of bots) b.close();
    await Promise.all(instances.map((i) => i.stop('SIGKILL')));
    await database?.close().catch(() => {});
    await redis?.dispose();
    pg?.dispose();
  }, 60_000);

  it('SIGTERM drains each instance in turn during a live match: nothing lost, no error seen', async () => {
    const ids = Array.from({ length: 10 }, () => randomUUID());
    await database.db.insert(users).values(
      ids.map((id, i) => ({
        id,
        name: `roll${i}`,
        email: `roll${i}-${id.slice(0, 8)}@example.test`,
        elo: 200,
        teamSpeakId: `ts-${id}`,
        verified: true,
      })),
    );
    const tokens = createTokens(env.JWT_SECRET);
    const urls = () => instances.map((i) => i.url);
    for (const [i, id] of ids.entries()) {
      const bot = new Bot(id, (await tokens.sign(id)).token, urls, i);
      bots.push(bot);
      bot.connect();
    }
    for (const b of bots) expect((await b.send('queue-message', { event: 'join' })).ok).toBe(true);
    for (const b of bots) expect((await b.send('queue-message', { event: 'ready' })).ok).toBe(true);
    const matchOf = async () =>
      (await database.db.select().from(matchPlayers).where(eq(matchPlayers.userId, ids[0])))[0]?.matchId;
    await expect.poll(matchOf, { interval: 100 }).toBeTruthy();
    const matchId = (await matchOf()) as string;
    const row = async () => (await database.db.select().from(matches).where(eq(matches.id, matchId)))[0];
    await expect.poll(async () => (await row()).status, { timeout: 20_000, interval: 100 }).toBe('active');
    // Live and playing rounds: from here on every SIM_ROUND_MS brings a round, whoever fires it.
    await expect.poll(async () => (await row()).round, { timeout: 20_000, interval: 100 }).toBeGreaterThan(0);

    // The players keep asking for the match state while the instances restart one after the other.
    let playing = true;
    const asking = bots.map(async (b, i) => {
      await sleep(i * 70);
      while (playing) {
        await b.send('match-message', { event: 'get-state', data: { matchId } }); // a refusal lands in b.errors
        await sleep(600);
      }
    });

    const drains: { exit: number | null; ms: number; roundsWhileDown: number }[] = [];
    for (const k of [0, 1]) {
      const old = instances[k];
      const before = await row();
      expect(before.status, 'the match is still being played when the restart begins').toBe('active');
      const roundsBefore = before.round;
      const t0 = performance.now();
      const exit = await old.stop('SIGTERM');
      const ms = Math.round(performance.now() - t0);
      expect((await health(old.url)).status).toBe(0); // the listener is closed
      await sleep(2_500); // down for a while: the other instance carries the match
      const roundsWhileDown = (await row()).round - roundsBefore;
      instances[k] = await startInstance(env, old.port);
      drains.push({ exit, ms, roundsWhileDown });
    }
    await expect.poll(async () => (await row()).status, { timeout: 60_000, interval: 200 }).toBe('finished');
    playing = false;
    await Promise.all(asking);
    console.info(`rolling.test.ts drains: ${JSON.stringify(drains)}`);

    expect(bots.flatMap((b) => b.errors)).toEqual([]);
    for (const d of drains) {
      expect(d.exit).toBe(0); // drained and exited cleanly, well before the 10 s force
      expect(d.roundsWhileDown).toBeGreaterThanOrEqual(1); // the other instance took over the jobs
    }
    expect(bots.flatMap((b) => b.errors)).toEqual([]);
    for (const b of bots) expect(b.reconnects, b.id).toBeGreaterThanOrEqual(1);
    // Each bot was told to move by the instance it was on, rather than finding its transport cut.
    for (const b of bots) expect(b.drainNotices, b.id).toBeGreaterThanOrEqual(1);
    // (Each drain's roundsWhileDown above is the simulator's rounds fired by the instance that
    // stayed up: the rounds were claimed by both processes.)

    const expected = expectedSimScore(matchId);
    const m = await row();
    expect({ teamOne: m.scoreOne, teamTwo: m.scoreTwo }).toEqual(expected);
    const winner = expected.teamOne > expected.teamTwo ? 'teamOne' : 'teamTwo';
    const players = await database.db.select().from(matchPlayers).where(eq(matchPlayers.matchId, matchId));
    for (const p of players) {
      const [u] = await database.db.select({ elo: users.elo }).from(users).where(eq(users.id, p.userId));
      expect(u.elo, p.name).toBe(p.team === winner ? 212 : 190);
    }
  }, 150_000);
});
