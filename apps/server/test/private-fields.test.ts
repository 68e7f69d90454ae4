/**
 * Private fields never reach another player (docs/contract.md §3, §6): one player goes through a
 * realistic session — friends, a whole match from the queue to the result over the socket, the
 * leaderboard, player cards, search, reports, their data export, the chat — and every HTTP answer
 * and socket event they get is scanned for the other players' e-mail, phone and TeamSpeak id,
 * which are set to values that cannot appear by chance. Every route, each caller, is scanned the
 * same way with the authorization matrix's calls (authorization-matrix.test.ts).
 */
import { matrixUserId } from '@openpug/shared';
import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matches } from '../src/db/schema';
import { matrixSessionFor } from '../src/modules/chat/service';
import {
  bearer,
  connectSocket,
  createTestApp,
  createTestUser,
  manualClock,
  type TestApp,
  type TestUser,
} from './helpers';

interface Secrets {
  email: string;
  phone: string;
  teamSpeakId: string;
}

const clock = manualClock();
let t: TestApp;
let me: TestUser;
/** The other nine players of the match, a friend, someone with a pending request, an admin. */
const others: TestUser[] = [];
const secrets: Secrets[] = [];
const sockets: Socket[] = [];
/** Everything the player received: [label, JSON text]. */
const received: Array<[string, string]> = [];

const secretsOf = (i: number): Secrets => ({
  email: `hidden-mail-${i}@private-field.test`,
  phone: `+4915550${String(i).padStart(5, '0')}`,
  teamSpeakId: `HiddenVoiceId${i}xyz=`,
});

async function call(method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, token = me.token) {
  const isChat = url.startsWith('/_matrix');
  const res = await t.app.inject({
    method,
    url,
    payload,
    headers: isChat ? { authorization: `Bearer ${token}` } : bearer(token),
  });
  received.push([`${method} ${url} (${res.statusCode})`, res.body]);
  return res;
}

const advance = async (ms: number) => {
  clock.advance(ms);
  await t.app.ctx.jobs.runDue();
};

beforeAll(async () => {
  t = await createTestApp({
    clock,
    env: { ACCEPT_TIMEOUT_MS: '5000', PICK_TIMEOUT_MS: '5000', BAN_TIMEOUT_MS: '5000', JOBS_POLL_MS: '0' },
  });
  await t.listen();
  // The player's own private values: theirs to see, so they are not scanned for.
  me = await createTestUser(t.app, { teamSpeakId: 'MyOwnVoiceId=', phone: '+4915551234567' });
  for (let i = 0; i < 12; i++) {
    const s = secretsOf(i);
    secrets.push(s);
    others.push(
      await createTestUser(t.app, {
        email: s.email,
        phone: s.phone,
        teamSpeakId: s.teamSpeakId,
        whatsAppEnabled: true,
        role: i === 11 ? 'ADMIN' : 'USER',
      }),
    );
  }
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.close();
});

describe("other players' private fields", () => {
  it('never appear in any answer or socket event a player gets', async () => {
    const socket = await connectSocket(t.url, me.token);
    sockets.push(socket);
    socket.onAny((name: string, payload: unknown) =>
      received.push([`socket ${name}`, JSON.stringify(payload)]),
    );

    // Friends: one accepted (their socket comes and goes, so presence events flow), one pending.
    const [friend, asker] = [others[9], others[10]];
    const request = await t.app.inject({
      method: 'POST',
      url: '/api/friends',
      headers: bearer(friend.token),
      payload: { recipient: me.id },
    });
    await call('GET', '/api/friends/requests');
    await call('PATCH', `/api/friends/${request.json()._id}`, { accepted: true });
    await t.app.inject({
      method: 'POST',
      url: '/api/friends',
      headers: bearer(asker.token),
      payload: { recipient: me.id },
    });
    await call('POST', '/api/friends', { recipient: others[0].id });
    const friendSocket = await connectSocket(t.url, friend.token);
    friendSocket.disconnect();

    // A whole match: the queue, the accept phase, picks and bans left to their deadlines, the
    // game server, the simulated rounds, the result.
    const players = others.slice(0, 9);
    const playerSockets = [socket];
    for (const p of players) {
      const s = await connectSocket(t.url, p.token);
      sockets.push(s);
      playerSockets.push(s);
    }
    for (const s of playerSockets)
      expect((await s.emitWithAck('queue-message', { event: 'join' })).ok).toBe(true);
    await expect.poll(() => received.some(([label]) => label === 'socket PRIVATE_QUEUE_READY')).toBe(true);
    await call('GET', '/api/queue');
    for (const s of playerSockets)
      expect((await s.emitWithAck('queue-message', { event: 'ready' })).ok).toBe(true);
    await expect.poll(() => received.some(([label]) => label === 'socket PRIVATE_MATCH_START')).toBe(true);
    const start = received.find(([label]) => label === 'socket PRIVATE_MATCH_START');
    const matchId = JSON.parse(start?.[1] ?? '{}').matchId as string;
    expect(matchId).toBeTruthy();
    await socket.emitWithAck('join-match', { matchId });
    const status = async () =>
      (await t.app.ctx.db.select().from(matches).where(eq(matches.id, matchId)))[0].status;
    for (let i = 0; i < 200 && (await status()) !== 'finished'; i++) {
      await advance(5_000);
      if (i % 10 === 0) await call('GET', `/api/match/${matchId}`);
    }
    expect(await status()).toBe('finished');
    await socket.emitWithAck('match-message', { event: 'get-state', data: { matchId } });
    await socket.emitWithAck('match-message', { event: 'help', data: { matchId, msg: 'help' } });

    // Pages and lists a player opens.
    for (const url of [
      '/api/profile',
      '/api/friends',
      '/api/friends/requests',
      '/api/queue',
      '/api/queue/eta',
      `/api/match/${matchId}`,
      '/api/match',
      '/api/match?status=finished',
      `/api/match/user/${me.id}`,
      `/api/match/user/${others[0].id}`,
      '/api/users/ranking',
      '/api/users?q=player',
      '/api/users?q=hidden',
      '/api/arena',
      '/api/moderation/me',
      '/api/profile/unlocks',
      '/api/privacy',
      '/api/privacy/export',
    ])
      await call('GET', url);
    for (const other of others) {
      await call('GET', `/api/users/${other.id}`);
      await call('GET', `/api/users/${other.id}/stats`);
      await call('GET', `/api/users/${other.id}/highlights`);
      await call('GET', `/api/users/${other.id}/drops`);
    }
    await call('POST', '/api/reports', {
      reportedId: others[1].id,
      category: 'other',
      text: 'rude',
      matchId,
    });
    await call('GET', '/api/reports/mine');

    // The chat: the match room and the players' chat profiles.
    const chat = await matrixSessionFor(t.app.ctx, me.id);
    await call('GET', '/_matrix/client/v3/sync?timeout=0', undefined, chat.accessToken);
    const server = t.app.ctx.config.MATRIX_SERVER_NAME ?? 'localhost';
    for (const other of others) {
      const mxid = encodeURIComponent(matrixUserId(other.id, server));
      await call('GET', `/_matrix/client/v3/profile/${mxid}`, undefined, chat.accessToken);
    }
    await advance(1_000);

    // The match really went through its phases on this player's socket.
    const events = new Set(received.map(([label]) => label));
    for (const name of ['MATCH_PICK_PLAYER', 'MATCH_BAN_MAP', 'MATCH_SERVER_AVAILABLE', 'MATCH_SCORE_UPDATE'])
      expect(events.has(`socket ${name}`), name).toBe(true);
    expect(received.length).toBeGreaterThan(80);
    // The scan is real: the player's own values do show up (in their profile and export).
    expect(received.some(([, text]) => text.includes('MyOwnVoiceId='))).toBe(true);
    const leaks: string[] = [];
    for (const [label, text] of received) {
      for (const [i, s] of secrets.entries())
        for (const [field, value] of Object.entries(s))
          if (text.includes(value)) leaks.push(`${label}: player ${i}'s ${field}`);
    }
    expect(leaks).toEqual([]);
  }, 120_000);
});
