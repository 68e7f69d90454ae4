/**
 * SIGKILL in the middle of substitutions: two matches whose ten players never come onto the
 * simulated server (SIM_CONNECT_MS far away) offer all their slots; three queued players each try
 * to take a slot in both matches at once, and the server is killed while those accepts run.
 * After the restart nothing is lost or doubled: every roster has ten different players, no
 * substitute is on two rosters, a substitute on a roster has left the queue and one who is not
 * still waits in it — and the offers go on, so the rest take their slots afterwards.
 */
import type { MatchState, QueueState } from '@openpug/shared';
import type { Socket } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { connectSocket, usingPostgres } from './helpers';
import { spawnedServer } from './spawned';

describe(`restart during substitutions on ${usingPostgres() ? 'PostgreSQL' : 'PGlite'}`, () => {
  it('a SIGKILL while substitutes take slots loses nothing and puts nobody on two rosters', async () => {
    const server = await spawnedServer(23, {
      ACCEPT_TIMEOUT_MS: '10000',
      PICK_TIMEOUT_MS: '200',
      MATCH_MAP_POOL: 'de_dust2',
      MATCH_CONNECT_TIMEOUT_MS: '1000',
      MATCH_CONNECT_POLL_MS: '200',
      SIM_CONNECT_MS: '3600000',
      SUBSTITUTE_OFFER_TIMEOUT_MS: '120000',
    });
    const { base, players } = server;
    let sockets = new Map<string, Socket>();
    const connectAll = async (ids: string[]) => {
      sockets = new Map();
      for (const p of players.filter((x) => ids.includes(x.id)))
        sockets.set(p.id, await connectSocket(base, p.token));
    };
    const sock = (id: string) => sockets.get(id) as Socket;
    const queueState = async (id: string) =>
      (await (
        await fetch(`${base}/api/queue`, {
          headers: { authorization: `Bearer ${players.find((p) => p.id === id)?.token}` },
        })
      ).json()) as QueueState;
    const matchState = async (matchId: string) =>
      (await (await fetch(`${base}/api/match/${matchId}`)).json()) as MatchState;
    const roster = (s: MatchState) => [...s.teamOne.players, ...s.teamTwo.players].map((p) => p._id);

    /** Ten players queue and accept; returns the match they land in. */
    const formMatch = async (ten: typeof players) => {
      for (const p of ten)
        expect((await sock(p.id).emitWithAck('queue-message', { event: 'join' })).ok).toBe(true);
      await expect.poll(async () => (await queueState(ten[0].id)).phase?.players.length ?? 0).toBe(10);
      for (const p of ten)
        expect((await sock(p.id).emitWithAck('queue-message', { event: 'ready' })).ok).toBe(true);
      await expect.poll(async () => (await queueState(ten[0].id)).matchId ?? null).not.toBeNull();
      return (await queueState(ten[0].id)).matchId as string;
    };

    const subs = players.slice(20, 23).map((p) => p.id);
    try {
      await server.start();
      await connectAll(players.map((p) => p.id));
      const matchIds = [await formMatch(players.slice(0, 10)), await formMatch(players.slice(10, 20))];
      // Nobody comes onto either server: after the connect deadline every slot is offered.
      for (const id of matchIds)
        await expect
          .poll(async () => (await matchState(id)).connect?.noShows.length ?? 0, { timeout: 20_000 })
          .toBe(10);
      for (const id of subs)
        expect((await sock(id).emitWithAck('queue-message', { event: 'join' })).ok).toBe(true);

      // Every substitute goes for a slot in both matches at once; the server dies meanwhile.
      for (const id of subs) for (const matchId of matchIds) sock(id).emit('substitute-accept', { matchId });
      await new Promise((r) => setTimeout(r, 30));
      for (const s of sockets.values()) s.disconnect();
      await server.kill();
      await server.start();
      await connectAll(subs);

      const check = async () => {
        const rosters = await Promise.all(matchIds.map(async (id) => roster(await matchState(id))));
        for (const r of rosters) expect(new Set(r).size).toBe(10);
        for (const id of subs) {
          const on = rosters.filter((r) => r.includes(id)).length;
          expect(on, `${id} on ${on} rosters`).toBeLessThanOrEqual(1);
          expect((await queueState(id)).inQueue, `${id} queued and on a roster`).toBe(on === 0);
        }
        return rosters;
      };
      await check();
      // The offers outlived the crash: whoever is still queued takes a slot now.
      for (const id of subs)
        if ((await queueState(id)).inQueue)
          expect((await sock(id).emitWithAck('substitute-accept', { matchId: matchIds[0] })).ok).toBe(true);
      const rosters = await check();
      for (const id of subs) expect(rosters.filter((r) => r.includes(id))).toHaveLength(1);
    } finally {
      for (const s of sockets.values()) s.disconnect();
      await server.kill();
      await server.dispose();
    }
  }, 180_000);
});
