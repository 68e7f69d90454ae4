/**
 * Scale-out: two instances with the Redis adapter deliver each other's events — a user connected
 * to instance A gets what instance B emits, and socket counts span both. Needs TEST_REDIS_URL.
 */
import { randomBytes } from 'node:crypto';
import { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  connectSocket,
  createTestApp,
  createTestUser,
  nextEvent,
  openTestDatabase,
  type TestApp,
  type TestDatabase,
} from '../../test/helpers';
import { ack, disconnect, got, queue, type SocketPlayer, socketPlayers } from '../../test/socket-players';
import { queueCount } from '../modules/queue/service';

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('Socket.IO Redis adapter across two instances', () => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  // A channel prefix of our own so parallel test runs never hear each other.
  const prefix = `openpug-test-${randomBytes(4).toString('hex')}`;
  beforeAll(async () => {
    database = await openTestDatabase();
    const env = { REDIS_URL: redisUrl!, REDIS_PREFIX: prefix };
    a = await createTestApp({ env, database });
    b = await createTestApp({ env, database });
    await Promise.all([a.listen(), b.listen()]);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await database.dispose();
  });

  it('delivers an event emitted on B to a socket on A, and counts sockets on both', async () => {
    const user = await createTestUser(a.app);
    const onA = await connectSocket(a.url, user.token);
    const onB = await connectSocket(b.url, user.token);
    await expect.poll(() => b.app.ctx.realtime.socketCount(user.id)).toBe(2);
    const got = nextEvent(onA, 'PUBLIC_QUEUE_UPDATE');
    b.app.ctx.realtime.toUser(user.id, 'PUBLIC_QUEUE_UPDATE', { count: 7 });
    expect(await got).toEqual({ count: 7 });
    onA.disconnect();
    await expect.poll(() => b.app.ctx.realtime.socketCount(user.id)).toBe(1);
    onB.disconnect();
  });

  it("sends one turn's broadcasts to Redis in one write, and they arrive in order", async () => {
    const user = await createTestUser(a.app);
    const onA = await connectSocket(a.url, user.token);
    await expect.poll(() => b.app.ctx.realtime.socketCount(user.id)).toBe(1);
    const counts: number[] = [];
    onA.on('PUBLIC_QUEUE_UPDATE', ({ count }: { count: number }) => counts.push(count));
    // Every socket write of this process that carries a PUBLISH (RESP spells the command out).
    const writes = vi.spyOn(Socket.prototype, 'write');
    const publishWrites = () =>
      writes.mock.calls.filter(([chunk]) =>
        Buffer.from(chunk as string)
          .toString('latin1')
          .includes('publish'),
      );
    try {
      for (let i = 0; i < 100; i++) b.app.ctx.realtime.toUser(user.id, 'PUBLIC_QUEUE_UPDATE', { count: i });
      await expect.poll(() => counts.length).toBe(100);
      expect(counts).toEqual([...Array(100).keys()]);
      // Auto-pipelining (hub.ts useRedisAdapter): one write for the turn; without it, one each.
      expect(publishWrites().length).toBeLessThanOrEqual(2);
    } finally {
      writes.mockRestore();
    }
    onA.disconnect();
  });

  it('counts the sockets of many users on both instances in one request', async () => {
    const [one, two, none] = await Promise.all([1, 2, 3].map(() => createTestUser(a.app)));
    const sockets = await Promise.all([
      connectSocket(a.url, one.token),
      connectSocket(b.url, one.token),
      connectSocket(b.url, two.token),
    ]);
    await expect.poll(() => a.app.ctx.realtime.socketCount(one.id)).toBe(2);
    const asked = vi.spyOn(a.app.ctx.realtime.io, 'in');
    try {
      expect(await a.app.ctx.realtime.socketCounts([one.id, two.id, none.id])).toEqual(
        new Map([
          [one.id, 2],
          [two.id, 1],
          [none.id, 0],
        ]),
      );
      // Counts asked in the same turn, one user at a time, go out together too.
      expect(
        await Promise.all([one.id, two.id, none.id].map((id) => a.app.ctx.realtime.socketCount(id))),
      ).toEqual([2, 1, 0]);
      expect(asked).toHaveBeenCalledTimes(2);
    } finally {
      asked.mockRestore();
    }
    for (const s of sockets) s.disconnect();
  });

  it('after its subscriber lost Redis, an instance sends its sockets the queue count, then hears the others again', async () => {
    const user = await createTestUser(a.app);
    const onA = await connectSocket(a.url, user.token);
    const rejoined = new Promise<void>((resolve) => a.app.ctx.bus.on('realtime.rejoined', () => resolve()));
    // What the other instances broadcast while this subscriber is away never arrives: the count
    // is sent again from the database once the subscriptions hold.
    const refreshed = nextEvent<{ count: number }>(onA, 'PUBLIC_QUEUE_UPDATE');
    const { Redis } = await import('ioredis');
    const admin = new Redis(redisUrl as string);
    try {
      const clients = String(await admin.call('CLIENT', 'LIST', 'TYPE', 'pubsub')).split('\n');
      const ids = clients
        .filter((line) => line.includes(` name=${prefix}:sub `))
        .map((line) => line.match(/^id=(\d+)/)?.[1]);
      // One subscriber per instance; both lose Redis, as in a Redis restart.
      expect(ids).toHaveLength(2);
      for (const id of ids) await admin.call('CLIENT', 'KILL', 'ID', id as string);
    } finally {
      admin.disconnect();
    }
    await rejoined;
    expect(await refreshed).toEqual({ count: await queueCount(a.app.ctx.db) });
    // Subscribed again: B's broadcasts reach A.
    const got = nextEvent(onA, 'PUBLIC_QUEUE_UPDATE');
    b.app.ctx.realtime.toAll('PUBLIC_QUEUE_UPDATE', { count: 42 });
    expect(await got).toEqual({ count: 42 });
    onA.disconnect();
  });

  it('queue changes on both instances reach every socket as one count from its own instance', async () => {
    const onA = socketPlayers(() => a);
    const onB = socketPlayers(() => b);
    const watchers = [await onA.player(), await onB.player()];
    const [joinsOnA, joinsOnB] = [await onA.player(), await onB.player()];
    const counts = (w: SocketPlayer) => got(w, 'PUBLIC_QUEUE_UPDATE');
    // Both instances' sends wait for calm (lib/priority.ts): both changes fall in the same window.
    for (const t of [a, b]) t.app.ctx.priority.urgentBegins();
    try {
      expect((await queue(joinsOnA, 'join')).ok).toBe(true);
      expect((await queue(joinsOnB, 'join')).ok).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      for (const t of [a, b]) t.app.ctx.priority.urgentEnds();
    }
    for (const w of watchers) await expect.poll(() => counts(w)).toEqual([{ count: 2 }]);
    // Sent to every instance's sockets (toAll, before 2d8aa88), each socket got a second frame.
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const w of watchers) expect(counts(w)).toEqual([{ count: 2 }]);
    // A change on one instance only: the other's sockets hear of it through the signal.
    expect((await queue(joinsOnA, 'leave')).ok).toBe(true);
    for (const w of watchers) await expect.poll(() => counts(w).at(-1)).toEqual({ count: 1 });
    expect((await queue(joinsOnB, 'leave')).ok).toBe(true);
    for (const w of watchers) await expect.poll(() => counts(w).at(-1)).toEqual({ count: 0 });
    // The signal is for instances: a client sending its name is refused, and no count follows.
    expect(await ack(joinsOnA, 'queue.count-due', {})).toEqual({ ok: false, msg: 'INVALID_INPUT' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const w of watchers) expect(counts(w)).toHaveLength(3);
    disconnect([...watchers, joinsOnA, joinsOnB]);
  });
});
