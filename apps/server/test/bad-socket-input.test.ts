/**
 * Robustness sweep over the socket handlers (docs/contract.md §7, §8): every event a socket listens to, taken
 * from a live server-side socket, gets garbage payloads over a real connection. Each refusal is an
 * ack `{ok: false, msg}` with a catalogue key (never ERROR, the socket's 500), and the server keeps
 * answering afterwards.
 */
import { randomUUID } from 'node:crypto';
import { clientEvents, ERROR_KEYS, handshakeEvents } from '@openpug/shared';
import type { Socket as ClientSocket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectSocket,
  createTestApp,
  createTestUser,
  nextEvent,
  type TestApp,
  type TestUser,
} from './helpers';

const catalogue = new Set<string>(ERROR_KEYS);

/** Listeners of the hub itself, answered with events rather than acks. */
const HUB_EVENTS = new Set(['authenticate', 'logout', 'disconnect', 'disconnecting', 'error']);

/** Events anyone may send (watching a public match page; match-message checks per action). */
const ANONYMOUS_EVENTS = new Set(['join-match', 'leave-match', 'match-message']);

const nested = (depth: number): unknown => {
  let value: unknown = 'x';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

const GARBAGE: Array<[string, unknown]> = [
  ['no payload', undefined],
  ['null', null],
  ['number', 42],
  ['string', 'hello'],
  ['boolean', true],
  ['empty array', []],
  ['array', [{ event: 'join' }]],
  ['empty object', {}],
  ['unknown event name', { event: 'explode', data: {} }],
  ['wrong field types', { event: 7, matchId: 12, userId: [], data: 'x' }],
  [
    'NUL strings',
    { event: 'get-state', matchId: 'a\u0000b', userId: 'a\u0000b', data: { matchId: 'a\u0000b' } },
  ],
  [
    // Long, yet within the message size limit (SOCKET_BUDGET.maxPayloadBytes): the schemas refuse them.
    'huge strings',
    { event: 'x'.repeat(20_000), matchId: 'x'.repeat(20_000), data: { matchId: 'y'.repeat(1000) } },
  ],
  ['deeply nested', nested(2_000)],
  ['prototype keys', JSON.parse('{"__proto__":{"userId":"x"},"constructor":{"prototype":{}}}')],
];

let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  await t.listen();
  user = await createTestUser(t.app);
});
afterAll(() => t.close());

/** The events a connected socket listens to, read from its server-side socket. */
async function registeredEvents(): Promise<string[]> {
  const socket = await connectSocket(t.url);
  const serverSide = [...t.app.ctx.realtime.io.of('/').sockets.values()][0];
  const names = serverSide.eventNames().map(String);
  socket.disconnect();
  return names.filter((name) => !HUB_EVENTS.has(name));
}

/** Waits for the ack, with a deadline so a handler that never answers fails the test. */
async function ack(socket: ClientSocket, event: string, payload: unknown): Promise<unknown> {
  const args = payload === undefined ? [] : [payload];
  return socket.timeout(5_000).emitWithAck(event, ...args);
}

describe('socket handlers', () => {
  it('listen to the events of docs/contract.md §7 (the sweep below covers whatever is registered)', async () => {
    const events = await registeredEvents();
    expect(events).toEqual(
      expect.arrayContaining(['queue-message', 'join-social', 'leave-social', 'join-match']),
    );
  });

  it('listen to exactly the feature events of the shared map (clientEvents), each with a handler', async () => {
    const features = Object.keys(clientEvents).filter(
      (e) => !(handshakeEvents as readonly string[]).includes(e),
    );
    expect((await registeredEvents()).sort()).toEqual(features.sort());
  });

  it('refuse garbage payloads with a catalogue key and keep working', async () => {
    const events = await registeredEvents();
    const anonymous = await connectSocket(t.url);
    const failures: string[] = [];
    let socket = await connectSocket(t.url, user.token);
    for (const event of events) {
      // A socket of its own per event: the sweep sends faster than a socket's event budget allows.
      socket.disconnect();
      socket = await connectSocket(t.url, user.token);
      for (const [label, payload] of GARBAGE) {
        const reply = (await ack(socket, event, payload)) as { ok: boolean; msg?: string };
        if (reply.ok !== false || !catalogue.has(String(reply.msg)) || reply.msg === 'ERROR')
          failures.push(`${event} ${label}: ${JSON.stringify(reply).slice(0, 200)}`);
      }
      if (!ANONYMOUS_EVENTS.has(event)) {
        const reply = await ack(anonymous, event, { event: 'join', matchId: randomUUID() });
        if (JSON.stringify(reply) !== JSON.stringify({ ok: false, msg: 'UNAUTHORIZED' }))
          failures.push(`${event} without a session: ${JSON.stringify(reply)}`);
      }
    }
    const pick = { event: 'pick-player', data: { matchId: randomUUID(), pickedId: randomUUID() } };
    expect(await ack(anonymous, 'match-message', pick)).toEqual({ ok: false, msg: 'UNAUTHORIZED' });
    expect(failures).toEqual([]);
    // Still connected and answering, over the socket and over HTTP.
    expect(socket.connected).toBe(true);
    expect(await ack(socket, 'join-match', { matchId: randomUUID() })).toEqual({
      ok: false,
      msg: 'NOT_FOUND',
    });
    expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
    socket.disconnect();
    anonymous.disconnect();
  });

  it('answers a refusal without an ack callback as SOCKET_ERROR', async () => {
    const socket = await connectSocket(t.url, user.token);
    const refused = nextEvent(socket, 'SOCKET_ERROR');
    socket.emit('queue-message', { event: 42 });
    expect(await refused).toEqual({ event: 'queue-message', msg: 'INVALID_INPUT' });
    socket.disconnect();
  });

  it('answers a bad authenticate payload with unauthorized BAD_TOKEN', async () => {
    const socket = await connectSocket(t.url);
    for (const [label, payload] of GARBAGE) {
      const refused = nextEvent<{ msg: string }>(socket, 'unauthorized');
      socket.emit('authenticate', ...(payload === undefined ? [] : [payload]));
      expect(await refused, label).toEqual({ msg: 'BAD_TOKEN' });
    }
    socket.disconnect();
  });

  it('drops a socket that sends more than the message size limit, and keeps serving others', async () => {
    const socket = await connectSocket(t.url, user.token);
    const closed = nextEvent(socket, 'disconnect');
    socket.emit('queue-message', { event: 'x'.repeat(2_000_000) });
    await closed;
    const again = await connectSocket(t.url, user.token);
    expect(await ack(again, 'queue-message', { event: 'leave' })).toEqual({ ok: false, msg: 'NOT_IN_QUEUE' });
    again.disconnect();
  });
});
