import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectSocket, createTestApp, createTestUser, nextEvent, type TestApp } from '../../test/helpers';

describe('socket hub on /socket', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    t.app.ctx.realtime.on('test-echo', z.object({ n: z.number() }), (_socket, data) => ({
      doubled: data.n * 2,
    }));
    await t.listen();
  });
  afterAll(() => t.close());

  it('answers authenticate {key} with authenticated and joins the private room', async () => {
    const user = await createTestUser(t.app);
    const socket = await connectSocket(t.url, user.token);
    expect(await t.app.ctx.realtime.socketCount(user.id)).toBe(1);
    const got = nextEvent(socket, 'PUBLIC_QUEUE_UPDATE');
    t.app.ctx.realtime.toUser(user.id, 'PUBLIC_QUEUE_UPDATE', { count: 3 });
    expect(await got).toEqual({ count: 3 });
    socket.disconnect();
  });

  it('refuses a bad token with unauthorized and joins nothing', async () => {
    const socket = await connectSocket(t.url);
    const refused = nextEvent<{ msg: string }>(socket, 'unauthorized');
    socket.emit('authenticate', { key: 'not-a-jwt' });
    expect(await refused).toEqual({ msg: 'BAD_TOKEN' });
    const malformed = nextEvent<{ msg: string }>(socket, 'unauthorized');
    socket.emit('authenticate', { nope: 1 });
    expect(await malformed).toEqual({ msg: 'BAD_TOKEN' });
    socket.disconnect();
  });

  it('validates handler payloads and refuses unauthenticated sockets', async () => {
    const anon = await connectSocket(t.url);
    expect(await anon.emitWithAck('test-echo', { n: 2 })).toEqual({ ok: false, msg: 'UNAUTHORIZED' });
    anon.disconnect();
    const user = await createTestUser(t.app);
    const socket = await connectSocket(t.url, user.token);
    expect(await socket.emitWithAck('test-echo', { n: 'x' })).toEqual({ ok: false, msg: 'INVALID_INPUT' });
    expect(await socket.emitWithAck('test-echo', {})).toEqual({ ok: false, msg: 'MISSING' });
    expect(await socket.emitWithAck('test-echo', { n: 21 })).toEqual({ ok: true, data: { doubled: 42 } });
    // Without an ack callback a refusal arrives as SOCKET_ERROR.
    const err = nextEvent(socket, 'SOCKET_ERROR');
    socket.emit('test-echo', { n: null });
    expect(await err).toEqual({ event: 'test-echo', msg: 'INVALID_INPUT' });
    socket.disconnect();
  });

  it('logout leaves the private room', async () => {
    const user = await createTestUser(t.app);
    const socket = await connectSocket(t.url, user.token);
    socket.emit('logout');
    await expect.poll(() => t.app.ctx.realtime.socketCount(user.id)).toBe(0);
    socket.disconnect();
  });
});
