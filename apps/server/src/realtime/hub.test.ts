import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { z } from 'zod';
import { connectSocket, createTestApp, createTestUser, nextEvent, type TestApp } from '../../test/helpers';
import { SOCKET_BUDGET } from './budget';
import { createRealtime, publishHandled, type Realtime } from './hub';

/** The hub under test answers a map of its own (the app's hub answers `clientEvents`). */
const testEvents = {
  'test-echo': z.object({ n: z.number() }),
  /** In the map, but nobody registers a handler. */
  'test-unhandled': z.object({}),
};

describe('socket hub on /socket', () => {
  let t: TestApp; // users and their tokens
  let hub: Realtime<typeof testEvents>;
  let url: string;
  const server = createServer();
  beforeAll(async () => {
    t = await createTestApp();
    hub = createRealtime(server, {
      events: testEvents,
      tokens: t.app.ctx.tokens,
      trustProxy: 'loopback,linklocal,uniquelocal', // the TRUST_PROXY default
      log: t.app.log,
    });
    hub.on('test-echo', (_socket, data) => ({ doubled: data.n * 2 }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await hub.close();
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  it('registers the events of its map only, each once, and never the handshake', () => {
    // @ts-expect-error: not an event of the map
    expect(() => hub.on('test-other', () => 1)).toThrow(/test-other/);
    // @ts-expect-error: the hub answers the handshake itself
    expect(() => hub.on('authenticate', () => 1)).toThrow(/authenticate/);
    expect(() => hub.on('test-echo', () => 1)).toThrow(/registered already/);
    // The app's hub is typed by the shared map: a name or payload of another map does not compile.
    // @ts-expect-error: not an event of the shared map
    expect(() => t.app.ctx.realtime.on('test-echo', () => 1)).toThrow(/test-echo/);
    // @ts-expect-error: queue-message carries {event}, not {n}
    expect(() => t.app.ctx.realtime.on('queue-message', (_s, data: { n: number }) => data.n)).toThrow();
    // The handler gets the payload as the map's schema parses it.
    type EchoHandler = Parameters<typeof hub.on<'test-echo'>>[1];
    expectTypeOf<Parameters<EchoHandler>[1]>().toEqualTypeOf<{ n: number }>();
  });

  it('refuses an event of the map that has no handler with INVALID_INPUT', async () => {
    const user = await createTestUser(t.app);
    const socket = await connectSocket(url, user.token);
    expect(await socket.emitWithAck('test-unhandled', {})).toEqual({ ok: false, msg: 'INVALID_INPUT' });
    socket.disconnect();
  });

  it('answers authenticate {key} with authenticated and joins the private room', async () => {
    const user = await createTestUser(t.app);
    const socket = await connectSocket(url, user.token);
    expect(await hub.socketCount(user.id)).toBe(1);
    const got = nextEvent(socket, 'PUBLIC_QUEUE_UPDATE');
    hub.toUser(user.id, 'PUBLIC_QUEUE_UPDATE', { count: 3 });
    expect(await got).toEqual({ count: 3 });
    socket.disconnect();
  });

  it('sends one event to every socket of several users, each socket once, and to nobody else', async () => {
    const [one, two, other] = await Promise.all([1, 2, 3].map(() => createTestUser(t.app)));
    const sockets = await Promise.all([one, one, two, other].map((u) => connectSocket(url, u.token)));
    const heard = sockets.map(() => [] as unknown[]);
    sockets.forEach((s, i) => {
      s.on('PUBLIC_QUEUE_UPDATE', (p: unknown) => heard[i].push(p));
    });
    // Twice in the list, still once per socket (the rooms are a union).
    hub.toUsers([one.id, two.id, one.id], 'PUBLIC_QUEUE_UPDATE', { count: 5 });
    hub.toUsers([], 'PUBLIC_QUEUE_UPDATE', { count: 6 });
    // An event sent after them to every socket: once it is in, the ones before are too.
    hub.toAll('PUBLIC_QUEUE_UPDATE', { count: 7 });
    await vi.waitFor(() =>
      expect(heard.every((h) => h.some((p) => (p as { count: number }).count === 7))).toBe(true),
    );
    expect(heard).toEqual([
      [{ count: 5 }, { count: 7 }],
      [{ count: 5 }, { count: 7 }],
      [{ count: 5 }, { count: 7 }],
      [{ count: 7 }],
    ]);
    for (const s of sockets) s.disconnect();
  });

  it('refuses a bad token with unauthorized and joins nothing', async () => {
    const socket = await connectSocket(url);
    const refused = nextEvent<{ msg: string }>(socket, 'unauthorized');
    socket.emit('authenticate', { key: 'not-a-jwt' });
    expect(await refused).toEqual({ msg: 'BAD_TOKEN' });
    const malformed = nextEvent<{ msg: string }>(socket, 'unauthorized');
    socket.emit('authenticate', { nope: 1 });
    expect(await malformed).toEqual({ msg: 'BAD_TOKEN' });
    socket.disconnect();
  });

  it('validates handler payloads and refuses unauthenticated sockets', async () => {
    const anon = await connectSocket(url);
    expect(await anon.emitWithAck('test-echo', { n: 2 })).toEqual({ ok: false, msg: 'UNAUTHORIZED' });
    anon.disconnect();
    const user = await createTestUser(t.app);
    const socket = await connectSocket(url, user.token);
    expect(await socket.emitWithAck('test-echo', { n: 'x' })).toEqual({ ok: false, msg: 'INVALID_INPUT' });
    expect(await socket.emitWithAck('test-echo', {})).toEqual({ ok: false, msg: 'MISSING' });
    expect(await socket.emitWithAck('test-echo', { n: 21 })).toEqual({ ok: true, data: { doubled: 42 } });
    // Without an ack callback a refusal arrives as SOCKET_ERROR.
    const err = nextEvent(socket, 'SOCKET_ERROR');
    socket.emit('test-echo', { n: null });
    expect(await err).toEqual({ event: 'test-echo', msg: 'INVALID_INPUT' });
    socket.disconnect();
  });

  it('refuses an event nobody handles with INVALID_INPUT, signed in or not', async () => {
    const anon = await connectSocket(url);
    expect(await anon.emitWithAck('no-such-event', { event: 'join' })).toEqual({
      ok: false,
      msg: 'INVALID_INPUT',
    });
    anon.disconnect();
    const user = await createTestUser(t.app);
    const socket = await connectSocket(url, user.token);
    const err = nextEvent(socket, 'SOCKET_ERROR');
    socket.emit('queue-mesage', { event: 'join' });
    expect(await err).toEqual({ event: 'queue-mesage', msg: 'INVALID_INPUT' });
    socket.disconnect();
  });

  it('spends a budget per socket: over it TOO_MANY_REQUESTS, persistent abuse disconnects, others unaffected', async () => {
    const flooder = await connectSocket(url);
    const user = await createTestUser(t.app);
    const player = await connectSocket(url, user.token);
    const answers = await Promise.all(
      Array.from({ length: SOCKET_BUDGET.anonymous.burst + 10 }, () =>
        flooder.emitWithAck('test-echo', { n: 1 }),
      ),
    );
    const msgs = answers.map((a) => (a as { msg: string }).msg);
    // The burst is answered (UNAUTHORIZED: not signed in), what goes beyond it is refused cheaply.
    expect(msgs.filter((m) => m === 'UNAUTHORIZED').length).toBeLessThanOrEqual(
      SOCKET_BUDGET.anonymous.burst + 1,
    );
    expect(msgs.filter((m) => m === 'TOO_MANY_REQUESTS').length).toBeGreaterThanOrEqual(9);
    // The signed-in player on another socket is served meanwhile.
    expect(await player.emitWithAck('test-echo', { n: 4 })).toEqual({ ok: true, data: { doubled: 8 } });
    const gone = nextEvent(flooder, 'disconnect');
    for (let i = 0; i < SOCKET_BUDGET.refusalsBeforeDisconnect; i++) flooder.emit('test-echo', { n: 1 });
    expect(await gone).toBe('io server disconnect');
    player.disconnect();
  });

  it('an address whose socket was disconnected for abuse cannot open a new one for a while', async () => {
    const abuser = { 'x-forwarded-for': '203.0.113.99' };
    const flooder = await connectSocket(url, undefined, abuser);
    const gone = nextEvent(flooder, 'disconnect');
    const over = SOCKET_BUDGET.anonymous.burst + SOCKET_BUDGET.refusalsBeforeDisconnect + 5;
    for (let i = 0; i < over; i++) flooder.emit('test-echo', { n: 1 });
    expect(await gone).toBe('io server disconnect');
    await expect(connectSocket(url, undefined, abuser)).rejects.toThrow();
    // Another address is welcome meanwhile.
    const other = await connectSocket(url, undefined, { 'x-forwarded-for': '198.51.100.99' });
    other.disconnect();
  });

  it('spends a budget per client address too: many sockets from one place cannot add up theirs', async () => {
    // Loopback is trusted as a proxy by default, so X-Forwarded-For names the client.
    const from = (address: string) => async () =>
      connectSocket(url, (await createTestUser(t.app)).token, { 'x-forwarded-for': address });
    const crowd = await Promise.all(Array.from({ length: 6 }, from('203.0.113.7')));
    const neighbour = await from('198.51.100.4')();
    const perSocket = SOCKET_BUDGET.signedIn.burst; // each socket stays within its own burst
    const answers = (
      await Promise.all(
        crowd.map((s) =>
          Promise.all(Array.from({ length: perSocket }, () => s.emitWithAck('test-echo', { n: 1 }))),
        ),
      )
    ).flat() as { ok: boolean; msg?: string }[];
    const refused = answers.filter((a) => a.msg === 'TOO_MANY_REQUESTS').length;
    expect(refused).toBeGreaterThanOrEqual(crowd.length * perSocket - SOCKET_BUDGET.address.burst - 10);
    expect(refused).toBeGreaterThan(0);
    // Another address is served as usual meanwhile.
    expect(await neighbour.emitWithAck('test-echo', { n: 2 })).toEqual({ ok: true, data: { doubled: 4 } });
    for (const s of [...crowd, neighbour]) s.disconnect();
  });

  it('logout leaves the private room', async () => {
    const user = await createTestUser(t.app);
    const socket = await connectSocket(url, user.token);
    socket.emit('logout');
    await expect.poll(() => hub.socketCount(user.id)).toBe(0);
    socket.disconnect();
  });

  it('closing the app drops the connections so that clients reconnect by themselves', async () => {
    const t2 = await createTestApp();
    await t2.listen();
    const user = await createTestUser(t2.app);
    const socket = await connectSocket(t2.url, user.token);
    const reason = nextEvent<string>(socket, 'disconnect');
    await t2.close();
    // 'transport close' makes socket.io-client reconnect; 'io server disconnect' would not.
    expect(await reason).toBe('transport close');
    expect(socket.active).toBe(true);
    socket.disconnect();
  });

  it('one instance alone sends no drain notice: its clients have no other instance to move to', async () => {
    // DRAIN_NOTICE_MS set, no REDIS_URL: the notice (and its wait) is for several instances
    // (test/rolling.test.ts); a client that obeyed it here would only be refused until the stop.
    const t2 = await createTestApp({ env: { DRAIN_NOTICE_MS: '5000' } });
    await t2.listen();
    const user = await createTestUser(t2.app);
    const socket = await connectSocket(t2.url, user.token);
    let notices = 0;
    socket.on('server-draining', () => notices++);
    const reason = nextEvent<string>(socket, 'disconnect');
    const started = Date.now();
    await t2.close();
    expect(await reason).toBe('transport close');
    expect(notices).toBe(0);
    // A client that ignores the notice would have held the stop for the whole 5 s.
    expect(Date.now() - started).toBeLessThan(5_000);
    socket.disconnect();
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)("the Redis adapter's pub client", () => {
  it('a publish cut off by the closing connection rejects for a caller that waits, and never unhandled', async () => {
    const { Redis } = await import('ioredis');
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      // Queued before the connection is up, then the client closes: ioredis rejects the queue.
      const awaited = new Redis(redisUrl as string);
      const waiting = publishHandled(awaited).publish('openpug-test', 'x');
      awaited.disconnect();
      await expect(waiting).rejects.toThrow('Connection is closed.');
      // What the adapter does: publish and drop the promise.
      const dropped = new Redis(redisUrl as string);
      void publishHandled(dropped).publish('openpug-test', 'y');
      dropped.disconnect();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(unhandled).toEqual([]);
      // Everything else is the client itself.
      const live = publishHandled(new Redis(redisUrl as string));
      expect(await live.publish('openpug-test', 'z')).toBe(0);
      expect(await live.ping()).toBe('PONG');
      await live.quit();
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
