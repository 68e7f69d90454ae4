/**
 * SIGKILL in the middle of substitutions: two matches whose ten players never come onto the
 * simulated server (SIM_CONNECT_MS far away) offer all their slots; three queued players each try
 * to take a slot in both matches at once, and the server is killed while those accepts run.
 * After the restart nothing is lost or doubled: every roster has ten different players, no
 * substitute is on two rosters, a substitute on a roster has left the queue and one who is not
 * still waits in it — and the offers go on, so the rest take their slots afterwards. Mid-match:
 * a player leaves a live game, their captain asks for a substitute, two queued players race for
 * the slot and the server is killed meanwhile; after the restart the leaver has their cooldown,
 * at most one substitute holds the slot (and has left the queue), the leaver is off the roster
 * exactly when a substitute is on it, and a slot still open is taken afterwards.
 */
import type { MatchState, QueueState } from '@openpug/shared';
import type { Socket } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { connectSocket, usingPostgres } from './helpers';
import { type SpawnedServer, spawnedServer } from './spawned';

/** The spawned server's players on sockets, with their queue and the public match state. */
function clients(server: SpawnedServer) {
  const { base, players } = server;
  let sockets = new Map<string, Socket>();
  const tokenOf = (id: string) => players.find((p) => p.id === id)?.token;
  const sock = (id: string) => sockets.get(id) as Socket;
  const queueState = async (id: string) =>
    (await (
      await fetch(`${base}/api/queue`, { headers: { authorization: `Bearer ${tokenOf(id)}` } })
    ).json()) as QueueState;
  const matchState = async (matchId: string) =>
    (await (await fetch(`${base}/api/match/${matchId}`)).json()) as MatchState;
  return {
    sock,
    queueState,
    matchState,
    async connect(ids: string[]) {
      sockets = new Map();
      for (const id of ids) sockets.set(id, await connectSocket(base, tokenOf(id)));
    },
    disconnect() {
      for (const s of sockets.values()) s.disconnect();
    },
    /** Ten players queue and accept; returns the match they land in. */
    async formMatch(ten: string[]) {
      for (const id of ten)
        expect((await sock(id).emitWithAck('queue-message', { event: 'join' })).ok).toBe(true);
      await expect.poll(async () => (await queueState(ten[0])).phase?.players.length ?? 0).toBe(10);
      for (const id of ten)
        expect((await sock(id).emitWithAck('queue-message', { event: 'ready' })).ok).toBe(true);
      await expect.poll(async () => (await queueState(ten[0])).matchId ?? null).not.toBeNull();
      return (await queueState(ten[0])).matchId as string;
    },
  };
}

const roster = (s: MatchState) => [...s.teamOne.players, ...s.teamTwo.players].map((p) => p._id);

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
    const { players } = server;
    const { connect, sock, disconnect, queueState, matchState, formMatch } = clients(server);
    const ids = players.map((p) => p.id);
    const subs = ids.slice(20, 23);
    try {
      await server.start();
      await connect(ids);
      const matchIds = [await formMatch(ids.slice(0, 10)), await formMatch(ids.slice(10, 20))];
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
      disconnect();
      await server.kill();
      await server.start();
      await connect(subs);

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
      disconnect();
      await server.kill();
      await server.dispose();
    }
  }, 180_000);
});

describe(`restart during a mid-match substitution on ${usingPostgres() ? 'PostgreSQL' : 'PGlite'}`, () => {
  it("a SIGKILL while substitutes race for a leaver's slot loses nothing and puts nobody on two rosters", async () => {
    const server = await spawnedServer(12, {
      ACCEPT_TIMEOUT_MS: '10000',
      PICK_TIMEOUT_MS: '200',
      MATCH_MAP_POOL: 'de_dust2',
      MATCH_CONNECT_TIMEOUT_MS: '0',
      // Long enough a game (13+ rounds) to outlast the leave, the kill and the restart.
      SIM_ROUND_MS: '3000',
      LEAVER_GRACE_MS: '1000',
      SUBSTITUTE_OFFER_TIMEOUT_MS: '120000',
    });
    const c = clients(server);
    const ids = server.players.map((p) => p.id);
    const ten = ids.slice(0, 10);
    const subs = ids.slice(10, 12);
    try {
      await server.start();
      await c.connect(ids);
      const matchId = await c.formMatch(ten);
      const played = async () => {
        const { score } = await c.matchState(matchId);
        return score.teamOne + score.teamTwo;
      };
      await expect.poll(played, { timeout: 20_000 }).toBeGreaterThan(0);

      // A player who is not a captain leaves the live game and stays away: a leaver.
      let state = await c.matchState(matchId);
      const team = 'teamOne';
      const captain = state[team].captain._id;
      const leaver = state[team].players.map((p) => p._id).find((id) => id !== captain) as string;
      const left = await fetch(`${server.base}/api/dev/simulator/presence`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ userId: leaver, onServer: false }),
      });
      expect(left.status).toBe(200);
      await expect
        .poll(async () => (await c.matchState(matchId)).leavers ?? [], { timeout: 20_000 })
        .toEqual([leaver]);
      for (const id of subs)
        expect((await c.sock(id).emitWithAck('queue-message', { event: 'join' })).ok).toBe(true);
      const asked = await c.sock(captain).emitWithAck('substitute-request', { matchId, userId: leaver });
      expect(asked.ok).toBe(true);

      // Both queued players go for the slot at once; the server dies meanwhile.
      for (const id of subs) c.sock(id).emit('substitute-accept', { matchId });
      await new Promise((r) => setTimeout(r, 30));
      c.disconnect();
      await server.kill();
      await server.start();
      await c.connect(subs);

      /** The invariants: one slot, at most one substitute on it, queued exactly when not on it. */
      const check = async () => {
        const s = await c.matchState(matchId);
        const r = roster(s);
        expect(new Set(r).size).toBe(10);
        const taken = subs.filter((id) => r.includes(id));
        expect(taken.length).toBeLessThanOrEqual(1);
        expect(r.includes(leaver)).toBe(taken.length === 0);
        for (const id of subs) expect((await c.queueState(id)).inQueue, `${id} queued`).toBe(!r.includes(id));
        if (taken.length === 1) expect(s[team].players.map((p) => p._id)).toContain(taken[0]);
        return taken;
      };
      expect((await c.queueState(leaver)).cooldown).toMatchObject({ kind: 'leave', offence: 1 });
      let taken = await check();
      // The offer outlived the crash: a slot still open is taken now, by the first substitute.
      if (taken.length === 0)
        expect((await c.sock(subs[0]).emitWithAck('substitute-accept', { matchId })).ok).toBe(true);
      taken = await check();
      expect(taken).toHaveLength(1);
      const late = subs.find((id) => id !== taken[0]) as string;
      expect((await c.sock(late).emitWithAck('substitute-accept', { matchId })).ok).toBe(false);
      await check();
      state = await c.matchState(matchId);
      expect(state.status).toBe('active');
    } finally {
      c.disconnect();
      await server.kill();
      await server.dispose();
    }
  }, 180_000);
});
