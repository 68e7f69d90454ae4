/**
 * POST /api/admin/matches/:id/cancel: an admin ends a stuck match. The room sees it live like any
 * cancellation, the players may queue again, the game server is released (match.ended); everybody
 * else is refused, and so are unknown, malformed and finished matches.
 */
import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  connectSocket,
  createTestApp,
  createTestUser,
  seedMatch,
  startMatch,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import type { GameServerProvider } from '../gameservers/provider';
import { setProvider } from '../gameservers/service';
import { matches } from '../matches/schema';

let t: TestApp;
let admin: TestUser;
let player: TestUser;
const released: string[] = [];
const sockets: Socket[] = [];

const cancel = (matchId: string, token?: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/admin/matches/${matchId}/cancel`,
    headers: token ? bearer(token) : {},
  });
const matchRow = async (id: string) =>
  (await t.app.ctx.db.select().from(matches).where(eq(matches.id, id)))[0];

/** Ten players who could queue (voice linked), the first one the test's `player`. */
async function tenPlayers(): Promise<TestUser[]> {
  const ps: TestUser[] = [];
  for (let i = 0; i < 10; i++) ps.push(await createTestUser(t.app, { teamSpeakId: `ts-${Math.random()}` }));
  return ps;
}

beforeAll(async () => {
  t = await createTestApp();
  await t.listen();
  // A provider that records what it is asked to give back (the simulator frees nothing visible).
  const recording: GameServerProvider = {
    name: 'recording',
    allocate: async () => ({ connect: '10.0.0.1:27015', gotv: '10.0.0.1:27020' }),
    release: async (matchId: string) => void released.push(matchId),
  };
  setProvider(t.app.ctx, recording);
  admin = await createTestUser(t.app, { role: 'ADMIN' });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.close();
});

describe('admin cancels a match', () => {
  it('an active match: cancelled with ADMIN_CANCELLED, seen live in the room, server released, players free', async () => {
    const ps = await tenPlayers();
    player = ps[0];
    const matchId = await seedMatch(t.app, 'active', ps);
    const socket = await connectSocket(t.url, player.token);
    sockets.push(socket);
    const events: { name: string; payload: unknown }[] = [];
    socket.onAny((name, payload) => events.push({ name, payload }));
    await socket.emitWithAck('join-match', { matchId });
    expect(await socket.emitWithAck('queue-message', { event: 'join' })).toEqual({
      ok: false,
      msg: 'ALREADY_IN_MATCH',
    });

    const res = await cancel(matchId, admin.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ _id: matchId, status: 'cancelled', cancelReason: 'ADMIN_CANCELLED' });
    const m = await matchRow(matchId);
    expect([m.status, m.cancelReason, m.finishedAt]).toEqual([
      'cancelled',
      'ADMIN_CANCELLED',
      expect.any(Number),
    ]);
    await expect
      .poll(() => events.find((e) => e.name === 'MATCH_CANCELLED')?.payload)
      .toEqual({ matchId, reason: 'ADMIN_CANCELLED' });
    await expect
      .poll(() => events.filter((e) => e.name === 'MATCH_STATE').at(-1)?.payload)
      .toMatchObject({ status: 'cancelled', cancelReason: 'ADMIN_CANCELLED' });
    await expect.poll(() => released).toContain(matchId);
    // The reason stays on the match page for whoever opens it later.
    const later = await t.app.inject({ method: 'GET', url: `/api/match/${matchId}` });
    expect(later.json()).toMatchObject({ status: 'cancelled', cancelReason: 'ADMIN_CANCELLED' });
    expect(await socket.emitWithAck('queue-message', { event: 'join' })).toEqual({
      ok: true,
      data: { inQueue: true, count: 1 },
    });
    expect(await socket.emitWithAck('queue-message', { event: 'leave' })).toMatchObject({ ok: true });

    // Over now: a second cancel is refused and changes nothing.
    const again = await cancel(matchId, admin.token);
    expect([again.statusCode, again.json()]).toEqual([409, { errors: { msg: 'WRONG_MATCH_PHASE' } }]);
    expect(released.filter((id) => id === matchId)).toHaveLength(1);
  });

  it('a match still in the player veto can be cancelled too', async () => {
    const ps = await tenPlayers();
    const matchId = await startMatch(
      t.app,
      ps.map((p) => p.id),
    );
    expect((await matchRow(matchId)).status).toBe('playerveto');
    const res = await cancel(matchId, admin.token);
    expect(res.statusCode).toBe(200);
    expect((await matchRow(matchId)).cancelReason).toBe('ADMIN_CANCELLED');
  });

  it('refuses players (403), missing tokens (401), unknown (404), finished (409) and malformed ids (4xx)', async () => {
    const ps = await tenPlayers();
    const matchId = await seedMatch(t.app, 'active', ps);
    const asPlayer = await cancel(matchId, ps[0].token);
    expect([asPlayer.statusCode, asPlayer.json()]).toEqual([403, { errors: { msg: 'UNAUTHORIZED' } }]);
    const anonymous = await cancel(matchId);
    expect([anonymous.statusCode, anonymous.json()]).toEqual([401, { errors: { msg: 'UNAUTHORIZED' } }]);
    expect((await matchRow(matchId)).status).toBe('active');

    const unknown = await cancel('7d1c1f2e-9a0b-4c5d-8e6f-0a1b2c3d4e5f', admin.token);
    expect([unknown.statusCode, unknown.json()]).toEqual([404, { errors: { msg: 'NOT_FOUND' } }]);
    const finishedId = await seedMatch(t.app, 'finished', await tenPlayers());
    const finished = await cancel(finishedId, admin.token);
    expect([finished.statusCode, finished.json()]).toEqual([409, { errors: { msg: 'WRONG_MATCH_PHASE' } }]);
    expect((await matchRow(finishedId)).status).toBe('finished');
    for (const bad of ['nope', '1%27%20OR%201%3D1']) {
      const malformed = await cancel(bad, admin.token);
      expect([malformed.statusCode, malformed.json()]).toEqual([422, { errors: { msg: 'ID_MALFORMED' } }]);
    }
    // Absurdly long: the router refuses it before the route.
    const long = await cancel('x'.repeat(300), admin.token);
    expect([long.statusCode, long.json()]).toEqual([414, { errors: { msg: 'INVALID_INPUT' } }]);
    expect(released).not.toContain(matchId);
    expect(released).not.toContain(finishedId);
  });
});
