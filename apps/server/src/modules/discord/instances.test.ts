/**
 * Discord across instances: one gateway session per deployment (the `discord-gateway` lease: one
 * leader of two instances, takeover when the leader closes and after a crashed leader's lease
 * expired), 'game found' DMs over the REST API from an instance that is not the leader (against a
 * fake Discord), a refused DM (50007) recorded and shown through GET /api/profile/discord until a
 * DM goes through or a re-link, and the retry rules (permanent errors once, 429 after
 * retry_after, 5xx backed off).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  bearer,
  createTestApp,
  createTestUser,
  manualClock,
  openTestDatabase,
  type TestApp,
  type TestDatabase,
} from '../../../test/helpers';
import { leases } from '../../db/schema';
import { notificationsSettled, withRetries } from '../notify/deliver';
import { handleLinkCommand } from './bot';
import { type FakeDiscord, startFakeDiscord } from './fake-discord';
import { Lease } from './lease';
import { restDiscordSender } from './rest';
import { discordLeaderOf, GATEWAY_LEASE, setDiscordGatewayStarter } from './routes';
import { generateDiscordCode } from './service';

const TOKEN = 'fake-bot-token.0123456789';
const LEASE_MS = 300;
const quiet = { info: () => {}, error: () => {}, warn: () => {} };

/** An instance of the deployment on a shared database; records its gateway logins. */
async function instance(
  name: string,
  database: TestDatabase,
  clock: ReturnType<typeof manualClock>,
  gateways: string[],
  env: Record<string, string> = {},
): Promise<TestApp> {
  const t = await createTestApp({
    database,
    clock,
    env: {
      DISCORD_BOT_TOKEN: TOKEN,
      DISCORD_API_URL: 'http://127.0.0.1:9/api',
      DISCORD_LEASE_MS: String(LEASE_MS),
      ...env,
    },
  });
  setDiscordGatewayStarter(t.app.ctx, async () => {
    gateways.push(`${name} login`);
    return { close: async () => void gateways.push(`${name} logout`) };
  });
  await t.app.ready();
  return t;
}
const leaderOf = (t: TestApp) => {
  const elector = discordLeaderOf(t.app.ctx);
  if (!elector) throw new Error('no elector');
  return elector;
};

describe('one Discord gateway session for the deployment', () => {
  let database: TestDatabase;
  const clock = manualClock();
  const gateways: string[] = [];
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    database = await openTestDatabase();
    a = await instance('A', database, clock, gateways);
    b = await instance('B', database, clock, gateways);
  });
  afterAll(async () => {
    await b.close();
    await database.dispose();
  });

  it('exactly one of two instances leads and logs the gateway in', async () => {
    // A few more rounds on both: nothing changes while A renews.
    for (let i = 0; i < 3; i++) {
      expect(await leaderOf(a).tick()).toBe(true);
      expect(await leaderOf(b).tick()).toBe(false);
    }
    expect([leaderOf(a).isLeader, leaderOf(b).isLeader]).toEqual([true, false]);
    expect(gateways).toEqual(['A login']);
    const rows = await database.db.select().from(leases);
    expect(rows).toEqual([
      { name: GATEWAY_LEASE, holder: leaderOf(a).lease.holder, expiresAt: expect.any(Date) },
    ]);
  });

  it('the leader closes: its gateway stops, and the other takes over within the lease time', async () => {
    await a.close();
    const closedAt = Date.now();
    expect(gateways).toEqual(['A login', 'A logout']);
    // B's own renewal timer (every LEASE_MS / 3) picks the free lease up.
    await vi.waitFor(() => expect(leaderOf(b).isLeader).toBe(true), { timeout: LEASE_MS, interval: 10 });
    expect(Date.now() - closedAt).toBeLessThan(LEASE_MS);
    expect(gateways).toEqual(['A login', 'A logout', 'B login']);
  });
});

describe('a crashed leader', () => {
  let database: TestDatabase;
  const clock = manualClock();
  const gateways: string[] = [];
  let c: TestApp;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await c.close();
    await database.dispose();
  });

  it('is replaced only after its lease expired', async () => {
    // An instance took the lease and died: no renewal, no release.
    const crashed = new Lease(database.db, clock, GATEWAY_LEASE, 'crashed-instance', LEASE_MS);
    expect(await crashed.acquire()).toBe(true);
    c = await instance('C', database, clock, gateways);
    expect(leaderOf(c).isLeader).toBe(false);
    clock.advance(LEASE_MS - 1);
    expect(await leaderOf(c).tick()).toBe(false);
    expect(gateways).toEqual([]);
    clock.advance(1);
    expect(await leaderOf(c).tick()).toBe(true);
    expect(gateways).toEqual(['C login']);
    // The crashed instance, if it came back, could not take the lease back.
    expect(await crashed.acquire()).toBe(false);
  });
});

describe('Discord DMs over the REST API from an instance that is not the leader', () => {
  let database: TestDatabase;
  let fake: FakeDiscord;
  const clock = manualClock();
  const gateways: string[] = [];
  let t: TestApp;
  let n = 0;
  const linked = (locale: 'en' | 'de' = 'en') =>
    createTestUser(t.app, { discordId: `70000000000000${String(n++).padStart(4, '0')}`, locale });
  const gameFound = async (...playerIds: string[]) => {
    await t.app.ctx.bus.emit('queue.phaseStarted', {
      phaseId: `phase-${n++}`,
      playerIds,
      deadline: clock.now() + 30_000,
    });
    await notificationsSettled(t.app.ctx);
  };
  const status = async (token: string) =>
    (await t.app.inject({ method: 'GET', url: '/api/profile/discord', headers: bearer(token) })).json();
  const messageCalls = (from = 0) => fake.requests.slice(from).filter((r) => r.route === 'messages');

  beforeAll(async () => {
    fake = await startFakeDiscord(TOKEN);
    database = await openTestDatabase();
    // Another instance holds the gateway.
    expect(await new Lease(database.db, clock, GATEWAY_LEASE, 'the-leader', 3_600_000).acquire()).toBe(true);
    t = await instance('D', database, clock, gateways, { DISCORD_API_URL: fake.url, NOTIFY_RETRY_MS: '1' });
  });
  afterAll(async () => {
    await t.close();
    await database.dispose();
    await fake.close();
  });

  it('game found: creates the DM channel, then posts the message, in the player’s language', async () => {
    expect(leaderOf(t).isLeader).toBe(false);
    const u = await linked('de');
    const row = (await status(u.token)) as { discordId: string };
    await gameFound(u.id);
    expect(fake.delivered(row.discordId)).toEqual([
      expect.stringMatching(/^\*\*openpug: Spiel gefunden!\*\*/),
    ]);
    const mine = fake.requests.filter((r) => r.body.recipient_id === row.discordId || r.route === 'messages');
    expect(mine.map((r) => [r.route, r.status])).toEqual([
      ['channels', 200],
      ['messages', 200],
    ]);
    expect(gateways).toEqual([]);
  });

  it('50007: tried once, recorded, shown in Settings; the next delivered DM clears it', async () => {
    const u = await linked();
    const { discordId } = await status(u.token);
    expect(await status(u.token)).toEqual({ discordId, dmFailedAt: null });
    fake.closeDms(discordId);
    const from = fake.requests.length;
    await gameFound(u.id);
    expect(messageCalls(from).map((r) => r.status)).toEqual([403]);
    expect(await status(u.token)).toEqual({ discordId, dmFailedAt: clock.now() });

    fake.closeDms(discordId, false);
    clock.advance(1000);
    await gameFound(u.id);
    expect(fake.delivered(discordId)).toHaveLength(1);
    expect(await status(u.token)).toEqual({ discordId, dmFailedAt: null });
  });

  it('50007 is cleared by a re-link, and belongs to the account the DM went to', async () => {
    const u = await linked();
    const { discordId } = await status(u.token);
    fake.closeDms(discordId);
    await gameFound(u.id);
    expect((await status(u.token)).dmFailedAt).toBe(clock.now());
    const { code } = await generateDiscordCode(t.app.ctx, u.id);
    expect((await handleLinkCommand(t.app.ctx, discordId, code)).ok).toBe(true);
    expect(await status(u.token)).toEqual({ discordId, dmFailedAt: null });
  });

  it('unknown user (10013) and a refused token (401) are not retried', async () => {
    const u = await linked();
    const { discordId } = await status(u.token);
    fake.unknownUser(discordId);
    let from = fake.requests.length;
    await gameFound(u.id);
    expect(fake.requests.slice(from).map((r) => [r.route, r.status])).toEqual([['channels', 404]]);
    expect((await status(u.token)).dmFailedAt).toBeNull();

    const v = await linked();
    const { discordId: other } = await status(v.token);
    const wrong = restDiscordSender(t.app.ctx, 'not-the-token', quiet);
    from = fake.requests.length;
    expect(
      await withRetries(
        t.app.ctx,
        'discord test',
        () => wrong.sendDirect(other, { content: 'hi' }, v.id).then(() => undefined),
        quiet,
      ),
    ).toBe(false);
    expect(fake.requests.slice(from).map((r) => r.status)).toEqual([401]);
    // Once refused, later sends fail at once without asking Discord again.
    expect(
      await withRetries(
        t.app.ctx,
        'discord test',
        () => wrong.sendDirect(other, { content: 'hi' }, v.id).then(() => undefined),
        quiet,
      ),
    ).toBe(false);
    expect(fake.requests.length).toBe(from + 1);
  });

  it('429: waits retry_after (not the back-off), then delivers', async () => {
    t.app.ctx.config.NOTIFY_RETRY_MS = 5_000;
    try {
      const u = await linked();
      const { discordId } = await status(u.token);
      fake.failNext('messages', { status: 429, retryAfter: 0.25 });
      const from = fake.requests.length;
      await gameFound(u.id);
      const calls = messageCalls(from);
      expect(calls.map((r) => r.status)).toEqual([429, 200]);
      const waited = calls[1].at - calls[0].at;
      expect(waited).toBeGreaterThanOrEqual(250);
      expect(waited).toBeLessThan(2_000);
      expect(fake.delivered(discordId)).toHaveLength(1);
    } finally {
      t.app.ctx.config.NOTIFY_RETRY_MS = 1;
    }
  });

  it('over the global 50 requests a second: the rest wait for the next second, none fails', async () => {
    // A fresh sender: its limiter starts at 50. 40 DMs are 80 requests, each DM with one attempt.
    const sender = restDiscordSender(t.app.ctx, TOKEN, quiet);
    const attempts = t.app.ctx.config.NOTIFY_ATTEMPTS;
    t.app.ctx.config.NOTIFY_ATTEMPTS = 1;
    try {
      const ids = Array.from({ length: 40 }, (_, i) => `4${String(i).padStart(17, '0')}`);
      const from = fake.requests.length;
      const sent = await Promise.all(
        ids.map((id) =>
          withRetries(
            t.app.ctx,
            'discord burst',
            () => sender.sendDirect(id, { content: 'hi' }, crypto.randomUUID()).then(() => undefined),
            quiet,
          ),
        ),
      );
      expect(sent.filter((ok) => !ok)).toHaveLength(0);
      expect(messageCalls(from)).toHaveLength(40);
      for (const id of ids) expect(fake.delivered(id)).toEqual(['hi']);
    } finally {
      t.app.ctx.config.NOTIFY_ATTEMPTS = attempts;
      await sender.close();
    }
  });

  it('5xx: backs off and tries again', async () => {
    t.app.ctx.config.NOTIFY_RETRY_MS = 60;
    try {
      const u = await linked();
      const { discordId } = await status(u.token);
      fake.failNext('messages', { status: 502 });
      const from = fake.requests.length;
      await gameFound(u.id);
      const calls = messageCalls(from);
      expect(calls.map((r) => r.status)).toEqual([502, 200]);
      expect(calls[1].at - calls[0].at).toBeGreaterThanOrEqual(60);
      expect(fake.delivered(discordId)).toHaveLength(1);
    } finally {
      t.app.ctx.config.NOTIFY_RETRY_MS = 1;
    }
  });
});
