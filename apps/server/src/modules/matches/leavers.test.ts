/**
 * Leavers, the 80 % rule and reliability on the embedded simulator (one round per SIM_ROUND_MS,
 * round_end listing only the players on the server, as MatchZy does): a player who drops off and
 * stays away LEAVER_GRACE_MS is a leaver (leave cooldown, state.leavers); only their captain may ask
 * for a substitute; a queued player gets the offer and takes the slot, the leaver's row stays and
 * is free; at the result the leaver loses whatever the score, the late substitute is not rated,
 * a player gone for a few rounds is rated only with ≥ 80 % of them — and every Elo change is
 * exactly what the history says. Reliability follows the calls each player kept.
 */
import { ELO_LOSS, ELO_WIN } from '@openpug/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestUser, manualClock, startMatch, type TestUser } from '../../../test/helpers';
import { createMatchTestApp, type MatchTestApp } from '../../../test/match-app';
import { users } from '../../db/schema';
import { inTransaction, logOf } from '../../jobs';
import { providerOf } from '../gameservers/service';
import { isMapOver, type SimulatorProvider, simulateRound } from '../gameservers/simulator';
import { recordOffence } from '../queue/cooldowns';
import { joinQueue, queueState } from '../queue/service';
import { ratedOutcome } from '../rating/elo';
import { reliabilityOf } from './reliability';
import { matchPlayers } from './schema';
import { findLiveMatchId } from './service';

const ROUND_MS = 1_000;
const GRACE_MS = 5_000;
const clock = manualClock();
let t: MatchTestApp;

beforeAll(async () => {
  t = await createMatchTestApp({
    clock,
    env: {
      MATCH_CONNECT_TIMEOUT_MS: '0',
      SIM_ROUND_MS: String(ROUND_MS),
      LEAVER_GRACE_MS: String(GRACE_MS),
      SUBSTITUTE_OFFER_TIMEOUT_MS: '30000',
    },
  });
});
afterAll(async () => {
  await t?.close();
});

const sim = () => providerOf(t.app.ctx) as SimulatorProvider;
const advance = (ms: number) => t.advance(ms);
const matchRow = (id: string) => t.matchRow(id);
const rows = (id: string) => t.app.ctx.db.select().from(matchPlayers).where(eq(matchPlayers.matchId, id));
const state = async (id: string) => (await t.app.inject({ method: 'GET', url: `/api/match/${id}` })).json();
const eloOf = async (id: string) =>
  (await t.app.ctx.db.select({ elo: users.elo }).from(users).where(eq(users.id, id)))[0].elo;

async function withSocket(user: TestUser) {
  const socket = await t.socket(user.token);
  const events: { name: string; payload: unknown }[] = [];
  socket.onAny((name, payload) => events.push({ name, payload }));
  const ask = (event: 'substitute-request' | 'substitute-accept', payload: object) =>
    socket.emitWithAck(event, payload) as Promise<{ ok: boolean; msg?: string; data?: unknown }>;
  return { user, socket, events, ask };
}

/** Ten players, picks time out, the one-map pool needs no veto; the simulator goes live at once. */
async function liveMatch(): Promise<{ matchId: string; players: TestUser[] }> {
  const players = await Promise.all(Array.from({ length: 10 }, () => createTestUser(t.app)));
  const matchId = await startMatch(
    t.app,
    players.map((p) => p.id),
  );
  for (let i = 0; i < 30 && (await matchRow(matchId)).liveAt === null; i++) await advance(ROUND_MS);
  expect((await matchRow(matchId)).liveAt).not.toBeNull();
  return { matchId, players };
}

/**
 * A seed whose simulated match, ten players of one Elo, ends in regulation after at least 16
 * rounds: long enough for the late substitute to come on, short enough that overtime never makes
 * them present for 80 % of it (a match id drawn at random went to 41 rounds now and then).
 */
function regulationSeed(): string {
  const team = (side: string) => Array.from({ length: 5 }, (_, i) => ({ key: `${side}${i}`, elo: 1000 }));
  for (let n = 0; ; n++) {
    const score = { teamOne: 0, teamTwo: 0 };
    while (!isMapOver(score.teamOne, score.teamTwo))
      score[simulateRound(`seed-${n}:${score.teamOne + score.teamTwo + 1}`, team('a'), team('b')).winner]++;
    const total = score.teamOne + score.teamTwo;
    if (total >= 16 && total <= 24) return `seed-${n}`;
  }
}

async function playOut(matchId: string) {
  for (let i = 0; i < 80 && (await matchRow(matchId)).status === 'active'; i++) await advance(ROUND_MS);
  expect((await matchRow(matchId)).status).toBe('finished');
}

describe('leavers, substitutes for them and the 80 % rule (simulator)', () => {
  it('the 80 % line: 12 of 15 rounds are rated, 11 are not; a leaver loses whatever the score', () => {
    const p = (roundsPresent: number, leftAt: number | null = null) =>
      ({ team: 'teamOne', leftAt, roundsPresent }) as const;
    expect(ratedOutcome(p(12), 'teamOne', 15)).toBe(true);
    expect(ratedOutcome(p(11), 'teamOne', 15)).toBe('unrated');
    expect(ratedOutcome(p(16), 'teamTwo', 20)).toBe(false);
    expect(ratedOutcome(p(16), 'draw', 20)).toBeNull();
    expect(ratedOutcome(p(20, 1), 'teamOne', 20)).toBe(false);
    expect(ratedOutcome(p(0), 'teamOne', 0)).toBe(true); // no round data: rated as before
  });

  it('leaver → captain asks → a queued player takes the slot; leaver loses, late sub unrated, history exact', async () => {
    const sub = await withSocket(await createTestUser(t.app, { teamSpeakId: `ts-${Math.random()}` }));
    await joinQueue(t.app.ctx, sub.user.id);
    const { matchId, players } = await liveMatch();
    expect((await matchRow(matchId)).round).toBe(0);
    sim().fixSeed(matchId, regulationSeed());
    const roster = await rows(matchId);
    const leaverRow = roster.find((r) => !r.captain && r.team === 'teamOne');
    const returnerRow = roster.find((r) => !r.captain && r.team === 'teamTwo');
    if (!leaverRow || !returnerRow) throw new Error('roster');
    const captainOf = (team: string) => roster.find((r) => r.captain && r.team === team);
    const leaver = players.find((p) => p.id === leaverRow.userId) as TestUser;
    const returner = players.find((p) => p.id === returnerRow.userId) as TestUser;
    const captain = await withSocket(players.find((p) => p.id === captainOf('teamOne')?.userId) as TestUser);
    const otherCaptain = await withSocket(
      players.find((p) => p.id === captainOf('teamTwo')?.userId) as TestUser,
    );
    const mate = await withSocket(
      players.find(
        (p) => p.id === roster.find((r) => r.team === 'teamOne' && !r.captain && r !== leaverRow)?.userId,
      ) as TestUser,
    );
    const eloBefore = new Map(
      await Promise.all(players.map(async (p) => [p.id, await eloOf(p.id)] as const)),
    );
    eloBefore.set(sub.user.id, await eloOf(sub.user.id));

    await advance(ROUND_MS); // a round with everyone
    sim().leave(leaver.id);
    sim().leave(returner.id);
    await advance(ROUND_MS); // both missing from this round_end: the grace starts
    // Not a leaver before the grace is over; asking is refused meanwhile.
    expect((await state(matchId)).leavers).toEqual([]);
    expect(await captain.ask('substitute-request', { matchId, userId: leaver.id })).toEqual({
      ok: false,
      msg: 'NOT_A_LEAVER',
    });
    await advance(ROUND_MS);
    await advance(ROUND_MS);
    sim().arrive(returner.id); // back within the grace: missed three rounds, not a leaver
    await advance(ROUND_MS);
    await advance(ROUND_MS);
    await advance(ROUND_MS); // five seconds after the leaver's first missing round
    expect((await state(matchId)).leavers).toEqual([leaver.id]);
    expect((await queueState(t.app.ctx, leaver.id)).cooldown).toMatchObject({ kind: 'leave', offence: 1 });
    expect((await queueState(t.app.ctx, returner.id)).cooldown).toBeNull();

    // Only the leaver's own captain may ask, and only for a leaver.
    expect(await otherCaptain.ask('substitute-request', { matchId, userId: leaver.id })).toEqual({
      ok: false,
      msg: 'NOT_YOUR_CAPTAIN_CALL',
    });
    expect(await mate.ask('substitute-request', { matchId, userId: leaver.id })).toEqual({
      ok: false,
      msg: 'NOT_YOUR_CAPTAIN_CALL',
    });
    expect(await captain.ask('substitute-request', { matchId, userId: mate.user.id })).toEqual({
      ok: false,
      msg: 'NOT_A_LEAVER',
    });
    expect(sub.events.filter((e) => e.name === 'PRIVATE_SUBSTITUTE_OFFER')).toEqual([]);

    const asked = await captain.ask('substitute-request', { matchId, userId: leaver.id });
    expect(asked.ok).toBe(true);
    await expect.poll(() => sub.events.filter((e) => e.name === 'PRIVATE_SUBSTITUTE_OFFER').length).toBe(1);
    const row = await matchRow(matchId);
    expect(sub.events.find((e) => e.name === 'PRIVATE_SUBSTITUTE_OFFER')?.payload).toEqual({
      matchId,
      map: { key: 'de_dust2', name: 'Dust II' },
      team: 'teamOne',
      teamName: row.teamOneName,
      slots: 1,
      deadline: row.deadline,
    });
    expect((await state(matchId)).substituteOffer).toEqual({ deadline: row.deadline, slots: [leaver.id] });

    expect(await sub.ask('substitute-accept', { matchId })).toEqual({
      ok: true,
      data: { matchId, team: 'teamOne' },
    });
    const after = await state(matchId);
    expect(after.teamOne.players.map((p: { _id: string }) => p._id)).toContain(sub.user.id);
    expect(after.teamOne.players.map((p: { _id: string }) => p._id)).not.toContain(leaver.id);
    expect(after.leavers).toEqual([]);
    expect(after.substituteOffer).toBeNull();
    expect((await queueState(t.app.ctx, sub.user.id)).inQueue).toBe(false);
    expect(await findLiveMatchId(t.app.ctx.db, sub.user.id)).toBe(matchId);
    expect(await findLiveMatchId(t.app.ctx.db, leaver.id)).toBeNull(); // free (once the cooldown ends)
    await expect.poll(() => sub.events.some((e) => e.name === 'PUBLIC_SUBSTITUTE_CLOSED')).toBe(true);
    // The slot is gone: a second taker is refused.
    const late = await withSocket(await createTestUser(t.app, { teamSpeakId: `ts-${Math.random()}` }));
    await joinQueue(t.app.ctx, late.user.id);
    expect(await late.ask('substitute-accept', { matchId })).toEqual({
      ok: false,
      msg: 'SUBSTITUTE_EXPIRED',
    });

    await playOut(matchId);
    const final = await matchRow(matchId);
    const done = await rows(matchId);
    const total = final.round;
    expect(total).toBeLessThanOrEqual(24); // the fixed seed: no overtime
    const of = (id: string) => done.find((r) => r.userId === id);
    expect(of(leaver.id)?.replacedAt).not.toBeNull();
    expect(of(returner.id)?.roundsPresent).toBe(total - 3);
    expect(of(sub.user.id)?.roundsPresent).toBeLessThan(0.8 * total);
    for (const p of [...players.map((x) => x.id), sub.user.id]) {
      const r = of(p);
      if (!r) throw new Error(p);
      const before = eloBefore.get(p) as number;
      const now = await eloOf(p);
      const rated = r.leftAt !== null || r.roundsPresent * 100 >= 80 * total;
      if (!rated) {
        expect([p, now, r.eloBefore, r.eloAfter]).toEqual([p, before, null, null]);
        continue;
      }
      const won = r.leftAt === null && final.winner === r.team;
      expect([p, now]).toEqual([p, before + (won ? ELO_WIN : -ELO_LOSS)]);
      expect([r.eloBefore, r.eloAfter]).toEqual([before, now]);
    }
    expect(of(leaver.id)?.eloAfter).toBe((eloBefore.get(leaver.id) as number) - ELO_LOSS);
    expect(of(sub.user.id)?.eloAfter).toBeNull();
    // The leaver's own history says: lost.
    const history = (await t.app.inject({ method: 'GET', url: `/api/match/user/${leaver.id}/` })).json()
      .docs[0].player;
    expect(history).toMatchObject({
      victory: false,
      eloAfter: (eloBefore.get(leaver.id) as number) - ELO_LOSS,
    });

    // Reliability: the leaver kept no call, everyone who finished kept theirs; a miss counts too.
    const reliability = await reliabilityOf(t.app.ctx.db, [leaver.id, sub.user.id, captain.user.id]);
    expect([...reliability]).toEqual([
      [leaver.id, 0],
      [sub.user.id, 100],
      [captain.user.id, 100],
    ]);
    await inTransaction(
      t.app.ctx.db,
      (tx, after) => recordOffence(t.app.ctx, tx, after, captain.user.id, 'miss'),
      logOf(t.app.ctx),
    );
    expect((await reliabilityOf(t.app.ctx.db, [captain.user.id])).get(captain.user.id)).toBe(50);
    const card = (await t.app.inject({ method: 'GET', url: `/api/users/${captain.user.id}` })).json();
    expect(card.reliability).toBe(50);
    const fresh = await createTestUser(t.app);
    expect((await reliabilityOf(t.app.ctx.db, [fresh.id])).get(fresh.id)).toBeNull();
  });

  it('an offer nobody takes ends without cancelling the live match; the captain may ask again', async () => {
    const { matchId, players } = await liveMatch();
    const roster = await rows(matchId);
    const leaverRow = roster.find((r) => !r.captain && r.team === 'teamTwo');
    const captainRow = roster.find((r) => r.captain && r.team === 'teamTwo');
    const captain = await withSocket(players.find((p) => p.id === captainRow?.userId) as TestUser);
    const leaverId = leaverRow?.userId as string;
    sim().leave(leaverId);
    for (let i = 0; i < 7; i++) await advance(ROUND_MS);
    expect((await state(matchId)).leavers).toEqual([leaverId]);
    expect((await captain.ask('substitute-request', { matchId, userId: leaverId })).ok).toBe(true);
    await advance(30_000);
    const row = await matchRow(matchId);
    expect(row.status === 'active' || row.status === 'finished').toBe(true);
    expect(row.cancelReason).toBeNull();
    if (row.status === 'active') {
      expect((await state(matchId)).substituteOffer).toBeNull();
      expect((await state(matchId)).leavers).toEqual([leaverId]);
      expect((await captain.ask('substitute-request', { matchId, userId: leaverId })).ok).toBe(true);
    }
  });
});
