/**
 * Presence after a crash (issue 21; docs/contract.md §4 Presence): the real server is SIGKILLed
 * with players in every state — in a live match, in an accept phase (some accepted), queued
 * outside it, online and idle, offline — and started again on the same data. Some come back,
 * most do not. Within the grace (QUEUE_DISCONNECT_GRACE_MS) + 2 s of the restart every status a
 * friend sees is what it should be: whoever came back is online with what they were doing;
 * whoever did not is offline, and dropped from the queue unless an accept phase holds them (its
 * own deadline settles those). Acknowledged accepts survive the kill.
 */
import { randomUUID } from 'node:crypto';
import type { FriendsResponse, QueueState, UserStatus } from '@openpug/shared';
import type { Socket } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { friendRequests } from '../src/db/schema';
import { connectSocket, usingPostgres } from './helpers';
import { spawnedServer } from './spawned';

// Long enough for the returning players to reconnect on a loaded two-core machine: the grace
// starts when the server is ready, before the test has even seen it answer.
const GRACE_MS = 3_000;

describe(`presence after SIGKILL on ${usingPostgres() ? 'PostgreSQL' : 'PGlite'}`, () => {
  it('every status is right within the grace + 2 s of the restart, for ten players in various states and more', async () => {
    // p0–p9: a live match; p10–p19: an accept phase (p10–p14 accepted); p20, p21: queued outside
    // it; p22: online, idle; p23: never online; p24: the friend who watches them all.
    const server = await spawnedServer(
      25,
      {
        QUEUE_DISCONNECT_GRACE_MS: String(GRACE_MS),
        PRESENCE_SWEEP_MS: '60000',
        ACCEPT_TIMEOUT_MS: '120000',
        PICK_TIMEOUT_MS: '150',
        BAN_TIMEOUT_MS: '150',
        SIM_ROUND_MS: '600000',
        JOBS_POLL_MS: '100',
      },
      (db, ids) =>
        db.insert(friendRequests).values(
          ids.slice(0, 24).map((id) => ({
            id: randomUUID(),
            requesterId: ids[24],
            recipientId: id,
            accepted: true,
            acceptedAt: new Date(),
          })),
        ),
    );
    const { base } = server;
    const p = server.players;
    const observer = p[24];
    let sockets: Socket[] = [];
    let running = false;
    const connectAll = async (indices: number[]) => {
      const opened = await Promise.all(indices.map((i) => connectSocket(base, p[i].token)));
      sockets.push(...opened);
      return opened;
    };
    const kill = async () => {
      for (const s of sockets) s.disconnect();
      sockets = [];
      running = false;
      await server.kill();
    };
    const queueState = async (i: number) =>
      (await (
        await fetch(`${base}/api/queue`, { headers: { authorization: `Bearer ${p[i].token}` } })
      ).json()) as QueueState;
    const statuses = async () => {
      const res = await fetch(`${base}/api/friends`, {
        headers: { authorization: `Bearer ${observer.token}` },
      });
      const { friends } = (await res.json()) as FriendsResponse;
      return new Map(friends.map((f) => [f._id, f.status]));
    };
    const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

    try {
      await server.start();
      running = true;
      const socks = await connectAll(range(0, 23));
      const queue = (i: number, event: string) => socks[i].emitWithAck('queue-message', { event });

      // A live match: ten join and accept; the draft and the veto run out by their deadlines.
      for (const i of range(0, 10)) expect((await queue(i, 'join')).ok).toBe(true);
      for (const i of range(0, 10)) expect((await queue(i, 'ready')).ok).toBe(true);
      await expect
        .poll(async () => (await statuses()).get(p[0].id)?.match.status, { timeout: 20_000 })
        .toBe('active');
      // An accept phase, half accepted; two more queued behind it; one online and idle.
      for (const i of range(10, 20)) expect((await queue(i, 'join')).ok).toBe(true);
      await expect.poll(async () => (await queueState(10)).phase?.players.length ?? 0).toBe(10);
      for (const i of range(10, 15)) expect((await queue(i, 'ready')).ok).toBe(true);
      for (const i of [20, 21]) expect((await queue(i, 'join')).ok).toBe(true);
      const before = await statuses();
      for (const i of range(0, 23)) expect(before.get(p[i].id)?.online).toBe(true);
      expect(before.get(p[23].id)?.online).toBe(false);

      await kill();
      await server.start();
      running = true;
      const restartedAt = Date.now();
      // Who comes back: three of the match, three of the accept phase (two had accepted), one of
      // the queued pair, the idle one.
      const back = [0, 1, 2, 13, 14, 15, 20, 22];
      await connectAll(back);
      const reconnectedMs = Date.now() - restartedAt;
      expect(reconnectedMs, 'the returning players reconnected within the grace').toBeLessThan(GRACE_MS);

      const expected = (i: number): Partial<UserStatus> & { matchActive: boolean } => {
        const online = back.includes(i);
        if (i < 10) return { online, inQueue: false, matchActive: true };
        if (i < 20) return { online, inQueue: true, matchActive: false }; // the accept phase holds them
        if (i < 22) return { online, inQueue: online, matchActive: false };
        return { online, inQueue: false, matchActive: false };
      };
      const view = (s: UserStatus | undefined) =>
        s && { online: s.online, inQueue: s.inQueue, matchActive: s.match.active };
      const want = range(0, 24).map((i) => [p[i].name, expected(i)]);
      await expect
        .poll(
          async () => {
            const now = await statuses();
            return range(0, 24).map((i) => [p[i].name, view(now.get(p[i].id))]);
          },
          { timeout: GRACE_MS + 2_000, interval: 100 },
        )
        .toEqual(want);
      const settledMs = Date.now() - restartedAt;
      expect(settledMs).toBeLessThanOrEqual(GRACE_MS + 2_000);
      if (process.env.RESTART_DEBUG)
        console.error(
          `presence: reconnected after ${reconnectedMs} ms, all statuses right after ${settledMs} ms`,
        );

      // The acknowledged accepts survived the kill; the one left alone in the queue was dropped.
      const phase = (await queueState(10)).phase;
      expect(
        phase?.players
          .filter((x) => x.accepted)
          .map((x) => x.userId)
          .sort(),
      ).toEqual(range(10, 15).map((i) => p[i].id));
      expect((await queueState(21)).inQueue).toBe(false);
      expect((await queueState(20)).inQueue).toBe(true);
    } finally {
      if (running) await kill();
      await server.dispose();
    }
  }, 90_000);
});
