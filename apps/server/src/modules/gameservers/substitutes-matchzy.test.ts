/**
 * The connect deadline and a substitute on a CS2 server running MatchZy (the fake rebuilt from
 * MatchZy's source, testing/fake-matchzy.ts): who is on the server comes from CS2's `status_json`
 * over RCON, polled while the match waits; a no-show's slot goes to a queued player, and the server
 * gets `matchzy_removeplayer` / `matchzy_addplayer` (Teams.cs:72-157) before the game goes live.
 */
import net from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectSocket,
  createTestApp,
  createTestUser,
  manualClock,
  startMatch,
  type TestApp,
} from '../../../test/helpers';
import { matches, matchPlayers } from '../matches/schema';
import { joinQueue, queueState } from '../queue/service';
import { MatchzyProvider } from './matchzy-provider';
import { setProvider } from './service';
import { FakeMatchzyServer } from './testing/fake-matchzy';

const RCON_PASSWORD = 'rcon-pw';
const CONNECT_MS = 60_000;
const POLL_MS = 5_000;
const clock = manualClock();
let t: TestApp;
let fake: FakeMatchzyServer;
let steamSeq = 9000;
const sockets: Awaited<ReturnType<typeof connectSocket>>[] = [];
/** Real individual SteamID64s (76561197960265728 + account id), as CS2 reports them. */
const nextSteamId = () => String(76561197960265728n + BigInt(++steamSeq));

beforeAll(async () => {
  fake = await new FakeMatchzyServer(RCON_PASSWORD).listen();
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((r) => probe.close(() => r()));
  const publicUrl = `http://127.0.0.1:${port}`;
  t = await createTestApp({
    clock,
    env: {
      GAME_SERVER_PROVIDER: 'matchzy',
      CS2_SERVERS: `rcon://:${RCON_PASSWORD}@127.0.0.1:${fake.port}`,
      CS2_RCON_TIMEOUT_MS: '2000',
      PUBLIC_URL: publicUrl,
      PICK_TIMEOUT_MS: '1000',
      MATCH_MAP_POOL: 'de_dust2',
      JOBS_POLL_MS: '0',
      MATCH_CONNECT_TIMEOUT_MS: String(CONNECT_MS),
      MATCH_CONNECT_POLL_MS: String(POLL_MS),
      SUBSTITUTE_OFFER_TIMEOUT_MS: '30000',
    },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  t.url = publicUrl;
  setProvider(
    t.app.ctx,
    new MatchzyProvider(t.app.ctx, t.app.ctx.config.cs2Servers, {
      timeoutMs: 2_000,
      loadChecks: 5,
      loadCheckIntervalMs: 200,
    }),
  );
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t?.close();
  await fake?.close();
});

const advance = async (ms: number) => {
  clock.advance(ms);
  await t.app.ctx.jobs.runDue();
};
const pollFor = async (ms: number) => {
  for (let waited = 0; waited < ms; waited += POLL_MS) await advance(POLL_MS);
};
const matchRow = async (id: string) =>
  (await t.app.ctx.db.select().from(matches).where(eq(matches.id, id)))[0];
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
    const socket = await connectSocket(t.url, subUser.token);
    sockets.push(socket);
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
