/**
 * Players on real sockets, for the queue tests (queue/queue.test.ts) and the match tests
 * (matches/matchmaking.test.ts): each a test user with a voice identity and a rising Elo, connected,
 * with every event it receives kept in order.
 */
import type { Socket } from 'socket.io-client';
import { expect } from 'vitest';
import type { users } from '../src/db/schema';
import { connectSocket, createTestUser, type TestApp, type TestUser } from './helpers';

/**
 * The settings both files' apps use: 30 s for each accept, pick and ban (the tests move the manual
 * clock past them), a simulated round a second, and jobs fired only when a test asks.
 */
export const QUEUE_TEST_ENV = {
  ACCEPT_TIMEOUT_MS: '30000',
  PICK_TIMEOUT_MS: '30000',
  BAN_TIMEOUT_MS: '30000',
  SIM_ROUND_MS: '1000',
  JOBS_POLL_MS: '0',
};

export interface SocketPlayer {
  user: TestUser;
  socket: Socket;
  events: { name: string; payload: unknown }[];
}

/** A socket handler's acknowledgement; `data` is whatever the event answers. */
// biome-ignore lint/suspicious/noExplicitAny: each test reads the fields of the event it sent
export type Ack = { ok: boolean; msg?: string; data?: any };

export const ack = (c: SocketPlayer, event: string, payload: unknown) =>
  c.socket.emitWithAck(event, payload) as Promise<Ack>;
export const queue = (c: SocketPlayer, event: 'join' | 'leave' | 'ready' | 'decline') =>
  ack(c, 'queue-message', { event });
/** The payloads of every `name` event the player got, oldest first. */
export function got(c: SocketPlayer, name: string) {
  // biome-ignore lint/suspicious/noExplicitAny: each test reads the fields of the event it waits for
  return c.events.filter((e) => e.name === name).map((e) => e.payload as any);
}
export const last = (c: SocketPlayer, name: string) => got(c, name).at(-1);

export function disconnect(ps: SocketPlayer[]): void {
  for (const p of ps) p.socket.disconnect();
}

/**
 * Makes players on the app `app()` returns, read at each call (a test file may build a fresh app
 * per test). Every player made is kept in `made`, for the file to disconnect after a test.
 */
export function socketPlayers(app: () => TestApp) {
  let n = 0;
  const made: SocketPlayer[] = [];

  async function player(fields: Partial<typeof users.$inferInsert> = {}): Promise<SocketPlayer> {
    n++;
    const t = app();
    const user = await createTestUser(t.app, {
      teamSpeakId: `ts-${n}-${Math.random()}`,
      elo: 200 + n,
      ...fields,
    });
    const socket = await connectSocket(t.url, user.token);
    const events: SocketPlayer['events'] = [];
    socket.onAny((name, payload) => events.push({ name, payload }));
    const client = { user, socket, events };
    made.push(client);
    return client;
  }

  /** Ten new players join; the queue is full and each is asked to accept. */
  async function tenInAcceptPhase(): Promise<SocketPlayer[]> {
    const ps: SocketPlayer[] = [];
    for (let i = 0; i < 10; i++) ps.push(await player());
    for (const p of ps) expect((await queue(p, 'join')).ok).toBe(true);
    for (const p of ps) await expect.poll(() => got(p, 'PRIVATE_QUEUE_READY').length).toBe(1);
    return ps;
  }

  return { player, tenInAcceptPhase, made };
}
