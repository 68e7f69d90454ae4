/**
 * Scale-out: two instances with the Redis adapter deliver each other's events — a user connected
 * to instance A gets what instance B emits, and socket counts span both. Needs TEST_REDIS_URL.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectSocket,
  createTestApp,
  createTestUser,
  nextEvent,
  openTestDatabase,
  type TestApp,
  type TestDatabase,
} from '../../test/helpers';

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('Socket.IO Redis adapter across two instances', () => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    database = await openTestDatabase();
    // A channel prefix of our own so parallel test runs never hear each other.
    const env = { REDIS_URL: redisUrl!, REDIS_PREFIX: `openpug-test-${randomBytes(4).toString('hex')}` };
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
});
