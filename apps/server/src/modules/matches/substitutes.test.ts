/**
 * The connect deadline and substitutes on the embedded simulator: everyone connects → no offer,
 * the game goes live; a player who never connects → `leave` cooldown, an offer to the queued
 * players, the first to accept takes the slot and the game goes live with them; an offer nobody
 * takes cancels the match (NO_SHOW) without Elo; two players racing for one slot → one wins;
 * players in the arena (fake CS2 server answering `status_json`) get the offer too and may take
 * the slot, a player neither queued nor in the arena gets none and is refused.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestUser, manualClock, startMatch, type TestUser } from '../../../test/helpers';
import { createMatchTestApp, type MatchTestApp } from '../../../test/match-app';
import { users } from '../../db/schema';
import { inTransaction, logOf } from '../../jobs';
import { pollArenaServers } from '../arena/service';
import { providerOf } from '../gameservers/service';
import type { SimulatorProvider } from '../gameservers/simulator';
import { FakeMatchzyServer } from '../gameservers/testing/fake-matchzy';
import { getStatus } from '../presence/service';
import { recordOffence } from '../queue/cooldowns';
import { joinQueue, queueState } from '../queue/service';
import { matchPlayers } from './schema';
import { findLiveMatchId } from './service';

const CONNECT_MS = 60_000;
const OFFER_MS = 30_000;
const POLL_MS = 5_000;
const ARENA_PASSWORD = 'arena-rcon';
const clock = manualClock();
let t: MatchTestApp;
/** The arena server (polled on demand: ARENA_POLL_MS 0). */
let arena: FakeMatchzyServer;
let steamSeq = 7000;
const nextSteamId = () => String(76561197960265728n + BigInt(++steamSeq));

beforeAll(async () => {
  arena = await new FakeMatchzyServer(ARENA_PASSWORD).listen();
  t = await createMatchTestApp({
    clock,
    env: {
      SIM_CONNECT_MS: '10000',
      MATCH_CONNECT_TIMEOUT_MS: String(CONNECT_MS),
      MATCH_CONNECT_POLL_MS: String(POLL_MS),
      SUBSTITUTE_OFFER_TIMEOUT_MS: String(OFFER_MS),
      ARENA_SERVERS: `rcon://:${ARENA_PASSWORD}@127.0.0.1:${arena.port}?connect=203.0.113.7:27015&name=DM`,
      ARENA_POLL_MS: '0',
    },
  });
});
afterAll(async () => {
  await t?.close();
  await arena?.close();
});

const sim = () => providerOf(t.app.ctx) as SimulatorProvider;
const advance = (ms: number) => t.advance(ms);
const matchRow = (id: string) => t.matchRow(id);
const roster = async (id: string) =>
  (await t.app.ctx.db.select().from(matchPlayers).where(eq(matchPlayers.matchId, id))).map((p) => ({
    userId: p.userId,
    team: p.team,
  }));
const state = async (id: string) => (await t.app.inject({ method: 'GET', url: `/api/match/${id}` })).json();

/** A player (voice-linked, online) with the events their socket got. */
async function online(steamId: string | null = null) {
  const user = await createTestUser(t.app, { teamSpeakId: `ts-${Math.random()}`, steamId });
  const socket = await t.socket(user.token);
  const events: { name: string; payload: unknown }[] = [];
  socket.onAny((name, payload) => events.push({ name, payload }));
  const accept = (matchId: string) =>
    socket.emitWithAck('substitute-accept', { matchId }) as Promise<{
      ok: boolean;
      msg?: string;
      data?: unknown;
    }>;
  return {
    user,
    socket,
    events,
    accept,
    offers: () => events.filter((e) => e.name === 'PRIVATE_SUBSTITUTE_OFFER'),
  };
}

/** A queued player (online). */
async function queued() {
  const player = await online();
  await joinQueue(t.app.ctx, player.user.id);
  return player;
}

/** An online player on the arena server, "In Arena" after a poll. */
async function inArena() {
  const steamId = nextSteamId();
  const player = await online(steamId);
  arena.connect(steamId);
  await pollArenaNow();
  expect((await getStatus(t.app.ctx, player.user.id)).inArena).toBe(true);
  return player;
}

/** A poll of our own: the app's arena job may be polling already, and then a call returns at once. */
async function pollArenaNow() {
  await expect.poll(() => pollArenaServers(t.app.ctx)).toBe(true);
}

/** Ten players; picks time out, the one-map pool needs no veto, the simulator's server is ready. */
async function readyMatch(): Promise<{ matchId: string; players: TestUser[] }> {
  const players = await Promise.all(Array.from({ length: 10 }, () => createTestUser(t.app)));
  const matchId = await startMatch(
    t.app,
    players.map((p) => p.id),
  );
  for (let i = 0; i < 20 && !(await matchRow(matchId)).serverGotv; i++) await advance(1_000);
  expect((await matchRow(matchId)).serverGotv).not.toBeNull();
  return { matchId, players };
}

/** Polls (and simulator steps) for `ms`, one poll interval at a time. */
async function pollFor(ms: number) {
  for (let waited = 0; waited < ms; waited += POLL_MS) await advance(POLL_MS);
}

describe('connect deadline and substitutes (simulator)', () => {
  it('everyone connects in time: the room sees them arrive, no offer, no cooldown, the game goes live', async () => {
    const watcher = await queued();
    const { matchId, players } = await readyMatch();
    const waiting = await state(matchId);
    expect(waiting.connect).toMatchObject({ onServer: [], noShows: [] });
    expect(waiting.connect.deadline).toBe((await matchRow(matchId)).deadline);
    await pollFor(10_000); // the simulated players arrive SIM_CONNECT_MS after the server is ready
    expect((await state(matchId)).connect?.onServer ?? []).toHaveLength(10);
    await pollFor(POLL_MS);
    expect((await matchRow(matchId)).liveAt).not.toBeNull();
    expect((await state(matchId)).connect).toBeNull();
    await pollFor(CONNECT_MS);
    expect(watcher.offers()).toEqual([]);
    for (const p of players) expect((await queueState(t.app.ctx, p.id)).cooldown).toBeNull();
  });

  it('a no-show gets the leave cooldown; the first queued player to accept takes the slot and the game goes live', async () => {
    const sub = await queued();
    const { matchId, players } = await readyMatch();
    const noShow = players[3];
    const team = (await roster(matchId)).find((p) => p.userId === noShow.id)?.team;
    sim().stayAway(noShow.id);
    await pollFor(CONNECT_MS);
    const row = await matchRow(matchId);
    expect(row.liveAt).toBeNull();
    expect((await queueState(t.app.ctx, noShow.id)).cooldown).toMatchObject({ kind: 'leave', offence: 1 });
    for (const p of players.filter((p) => p !== noShow))
      expect((await queueState(t.app.ctx, p.id)).cooldown).toBeNull();
    await expect.poll(() => sub.offers().length).toBe(1);
    expect(sub.offers()[0].payload).toEqual({
      matchId,
      map: { key: 'de_dust2', name: 'Dust II' },
      team,
      teamName: team === 'teamOne' ? row.teamOneName : row.teamTwoName,
      slots: 1,
      deadline: row.deadline,
    });
    expect((await state(matchId)).connect).toMatchObject({ noShows: [noShow.id], deadline: row.deadline });
    expect(await sub.accept(matchId)).toEqual({ ok: true, data: { matchId, team } });
    const after = await roster(matchId);
    expect(after).toHaveLength(10);
    expect(after.find((p) => p.userId === noShow.id)).toBeUndefined();
    expect(after.find((p) => p.userId === sub.user.id)?.team).toBe(team);
    expect((await queueState(t.app.ctx, sub.user.id)).inQueue).toBe(false);
    expect(await findLiveMatchId(t.app.ctx.db, sub.user.id)).toBe(matchId);
    expect(await findLiveMatchId(t.app.ctx.db, noShow.id)).toBeNull();
    // The substitute gets their own connect window; they arrive and the game starts.
    expect((await state(matchId)).connect).toMatchObject({ noShows: [] });
    await pollFor(15_000);
    expect((await matchRow(matchId)).liveAt).not.toBeNull();
    expect((await matchRow(matchId)).status).toBe('active');
  });

  it('an offer nobody takes cancels the match with NO_SHOW: no Elo changes, everyone is free again', async () => {
    const { matchId, players } = await readyMatch();
    const before = await t.app.ctx.db.select({ id: users.id, elo: users.elo }).from(users);
    sim().stayAway(players[0].id);
    await pollFor(CONNECT_MS);
    expect((await matchRow(matchId)).status).toBe('active');
    const late = await queued(); // queues while the offer runs: it reaches them too
    await expect.poll(() => late.offers().length).toBe(1);
    await pollFor(OFFER_MS);
    const row = await matchRow(matchId);
    expect([row.status, row.cancelReason]).toEqual(['cancelled', 'NO_SHOW']);
    const elo = await t.app.ctx.db.select({ id: users.id, elo: users.elo }).from(users);
    // (the games of the earlier tests play on meanwhile: only this match's players count)
    for (const p of players)
      expect(elo.find((u) => u.id === p.id)?.elo).toBe(before.find((u) => u.id === p.id)?.elo);
    for (const p of players) expect(await findLiveMatchId(t.app.ctx.db, p.id)).toBeNull();
    await expect.poll(() => late.events.some((e) => e.name === 'PUBLIC_SUBSTITUTE_CLOSED')).toBe(true);
    // Too late now: refused, and the player stays queued.
    expect(await late.accept(matchId)).toEqual({ ok: false, msg: 'SUBSTITUTE_EXPIRED' });
    expect((await queueState(t.app.ctx, late.user.id)).inQueue).toBe(true);
  });

  it('two players race for one slot: exactly one gets it, the other is refused and stays queued', async () => {
    const a = await queued();
    const b = await queued();
    const { matchId, players } = await readyMatch();
    sim().stayAway(players[9].id);
    await pollFor(CONNECT_MS);
    await expect.poll(() => a.offers().length + b.offers().length).toBe(2);
    const results = await Promise.all([a.accept(matchId), b.accept(matchId)]);
    const won = results.filter((r) => r.ok);
    expect(won).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, msg: 'SUBSTITUTE_TAKEN' }]);
    const [winner, loser] = results[0].ok ? [a, b] : [b, a];
    const ids = (await roster(matchId)).map((p) => p.userId);
    expect(ids).toContain(winner.user.id);
    expect(ids).not.toContain(loser.user.id);
    expect((await queueState(t.app.ctx, loser.user.id)).inQueue).toBe(true);
    // A player who is not queued cannot take a slot.
    const outsider = await createTestUser(t.app);
    const s = await t.socket(outsider.token);
    expect(await s.emitWithAck('substitute-accept', { matchId })).toEqual({
      ok: false,
      msg: 'SUBSTITUTE_NOT_QUEUED',
    });
  });

  it('players in the arena get the offer (also one arriving while it runs) and one takes the slot; a player in neither gets none and is refused', async () => {
    const { ctx } = t.app;
    const early = await inArena();
    const cooling = await inArena(); // in the arena, but on a cooldown: no offer
    await inTransaction(
      ctx.db,
      (tx, after) => recordOffence(ctx, tx, after, cooling.user.id, 'miss'),
      logOf(ctx),
    );
    const bystander = await online(); // neither queued nor in the arena
    const { matchId, players } = await readyMatch();
    const noShow = players[5];
    const team = (await roster(matchId)).find((p) => p.userId === noShow.id)?.team;
    sim().stayAway(noShow.id);
    await pollFor(CONNECT_MS);
    await expect.poll(() => early.offers().length).toBe(1);
    expect(early.offers()[0].payload).toMatchObject({ matchId, team, slots: 1 });
    const late = await inArena(); // comes into the arena while the offer runs: it reaches them too
    await expect.poll(() => late.offers().length).toBe(1);
    expect(bystander.offers()).toEqual([]);
    expect(cooling.offers()).toEqual([]);
    expect(await bystander.accept(matchId)).toEqual({ ok: false, msg: 'SUBSTITUTE_NOT_QUEUED' });
    expect(await cooling.accept(matchId)).toEqual({ ok: false, msg: 'QUEUE_COOLDOWN' });

    expect(await early.accept(matchId)).toEqual({ ok: true, data: { matchId, team } });
    expect((await roster(matchId)).find((p) => p.userId === early.user.id)?.team).toBe(team);
    expect(await findLiveMatchId(ctx.db, early.user.id)).toBe(matchId);
    expect(await late.accept(matchId)).toEqual({ ok: false, msg: 'SUBSTITUTE_TAKEN' });
    // The match takes over from the arena; still on the arena server, the next poll keeps it so.
    await expect
      .poll(() => getStatus(ctx, early.user.id))
      .toMatchObject({ inArena: false, match: { active: true, matchId } });
    await pollArenaNow();
    expect((await getStatus(ctx, early.user.id)).inArena).toBe(false);
    expect((await getStatus(ctx, late.user.id)).inArena).toBe(true);
    // The substitute arrives on the game server and the game starts.
    await pollFor(15_000);
    expect((await matchRow(matchId)).liveAt).not.toBeNull();
  });
});
