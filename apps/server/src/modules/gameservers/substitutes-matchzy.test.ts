import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestUser, manualClock, startMatch } from '../../../test/helpers';
import { createMatchTestApp, type MatchTestApp } from '../../../test/match-app';
import { matchPlayers } from '../matches/schema';
import { joinQueue, queueState } from '../queue/service';
import { FakeMatchzyServer } from './testing/fake-matchzy';

const RCON_PASSWORD = 'rcon-pw';
const CONNECT_MS = 60_000;
const POLL_MS = 5_000;
const clock = manualClock();
let t: MatchTestApp;
let fake: FakeMatchzyServer;
let steamSeq = 9000;
/** Real individual SteamID64s (76561197960265728 + account id), as CS2 reports them. */
const nextSteamId = () => String(76561197960265728n + BigInt(++steamSeq));

beforeAll(async () => {
  fake = await new FakeMatchzyServer(RCON_PASSWORD).listen();
  t = await createMatchTestApp({
    clock,
    matchzy: { servers: [fake], password: RCON_PASSWORD },
    env: {
      MATCH_CONNECT_TIMEOUT_MS: String(CONNECT_MS),
      MATCH_CONNECT_POLL_MS: String(POLL_MS),
      SUBSTITUTE_OFFER_TIMEOUT_MS: '30000',
    },
  });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const advance = (ms: number) => t.advance(ms);
const pollFor = async (ms: number) => {
  for (let waited = 0; waited < ms; waited += POLL_MS) await advance(POLL_MS);
};
const matchRow = (id: string) => t.matchRow(id);
const state = async (id: string) => (await t.app.inject({ method: 'GET', url: `/api/match/${id}` })).json();

/** Ten Steam-linked players; the match is loaded on the fake server, which is ready for them. */
async function loadedMatch() {
  const players = await Promise.all(
    Array.from({ length: 10 }, async () => {
      const steamId = nextSteamId();
      return { ...(await createTestUser(t.app, { steamId })), steamId };
    }),
  );
  const matchId = await startMatch(
    t.app,
    players.map((p) => p.id),
  );
  for (let i = 0; i < 20 && !(await matchRow(matchId)).serverGotv; i++) await advance(1_000);
  await expect.poll(() => fake.gamestate).toBe('warmup');
  await expect.poll(async () => (await matchRow(matchId)).deadline).not.toBeNull(); // the window runs
  const rows = await t.app.ctx.db.select().from(matchPlayers).where(eq(matchPlayers.matchId, matchId));
  const teamOf = (id: string) => rows.find((r) => r.userId === id)?.team;
  return { matchId, players: players.map((p) => ({ ...p, team: teamOf(p.id) })) };
}

async function finishOnServer(matchId: string) {
  fake.goLive();
  await fake.deliver();
  expect((await matchRow(matchId)).liveAt).not.toBeNull();
  fake.endMap();
  await fake.deliver();
  await expect.poll(async () => (await matchRow(matchId)).status).toBe('finished');
  fake.restart(); // the server is free for the next test's load
}

describe('connect deadline and substitutes (MatchZy)', () => {
  it('everyone on the server in time: status_json shows them, no cooldown, no offer', async () => {
    const { matchId, players } = await loadedMatch();
    for (const p of players) expect(fake.connect(p.steamId)).toBe(true);
    await pollFor(POLL_MS);
    expect(fake.commands).toContain('status_json');
    expect((await state(matchId)).connect.onServer).toHaveLength(10);
    await pollFor(CONNECT_MS);
    expect((await matchRow(matchId)).deadline).toBeNull(); // everyone there: the window is closed
    for (const p of players) expect((await queueState(t.app.ctx, p.id)).cooldown).toBeNull();
    await finishOnServer(matchId);
  });

  it('a no-show on team two: cooldown, offer, a queued player takes it, MatchZy gets the roster change, the game goes live', async () => {
    const subSteam = nextSteamId();
    const subUser = await createTestUser(t.app, {
      steamId: subSteam,
      teamSpeakId: 'ts-sub',
      name: 'Sub "Ace"',
    });
    const socket = await t.socket(subUser.token);
    const offers: unknown[] = [];
    socket.on('PRIVATE_SUBSTITUTE_OFFER', (o) => offers.push(o));
    await joinQueue(t.app.ctx, subUser.id);

    const { matchId, players } = await loadedMatch();
    const noShow = players.find((p) => p.team === 'teamTwo') as (typeof players)[number];
    for (const p of players) if (p !== noShow) fake.connect(p.steamId);
    await pollFor(CONNECT_MS);
    expect((await state(matchId)).connect).toMatchObject({ noShows: [noShow.id] });
    expect((await state(matchId)).connect.onServer).toHaveLength(9);
    expect((await queueState(t.app.ctx, noShow.id)).cooldown).toMatchObject({ kind: 'leave' });
    await expect.poll(() => offers.length).toBe(1);
    expect(offers[0]).toMatchObject({ matchId, team: 'teamTwo', map: { key: 'de_dust2' } });
    // Not on the roster yet: MatchZy kicks them (EventHandlers.cs:26-35).
    expect(fake.connect(subSteam)).toBe(false);

    const before = fake.commands.length;
    expect(await socket.emitWithAck('substitute-accept', { matchId })).toEqual({
      ok: true,
      data: { matchId, team: 'teamTwo' },
    });
    await expect
      .poll(() => fake.commands.slice(before))
      .toEqual([`matchzy_removeplayer ${noShow.steamId}`, `matchzy_addplayer ${subSteam} team2 "Sub 'Ace'"`]);
    expect(fake.steamIds('team2')).toContain(subSteam);
    const rows = await t.app.ctx.db.select().from(matchPlayers).where(eq(matchPlayers.matchId, matchId));
    expect(rows.map((r) => r.userId)).not.toContain(noShow.id);
    expect(rows.find((r) => r.userId === subUser.id)).toMatchObject({ team: 'teamTwo', steamId: subSteam });

    // The substitute comes onto the server; everyone is there and MatchZy starts the game.
    expect(fake.connect(subSteam)).toBe(true);
    await pollFor(POLL_MS);
    expect((await state(matchId)).connect).toMatchObject({ noShows: [] });
    expect((await state(matchId)).connect.onServer).toHaveLength(10);
    await finishOnServer(matchId);
  });
});
