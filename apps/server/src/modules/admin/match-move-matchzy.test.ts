/**
 * An admin moves a match between two CS2 servers of the pool running MatchZy (the fake rebuilt
 * from MatchZy's source, gameservers/testing/fake-matchzy.ts): the match is ended on the server it
 * leaves (`get5_endmatch`, ConsoleCommands.cs:469), the next free pool server loads it with a new
 * webhook secret (`matchzy_loadmatch_url`), and the old server can no longer post into the match.
 */
import net from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  createTestUser,
  manualClock,
  startMatch,
  type TestApp,
} from '../../../test/helpers';
import { leaseOfMatch } from '../gameservers/leases';
import { MatchzyProvider } from '../gameservers/matchzy-provider';
import { setProvider } from '../gameservers/service';
import { FakeMatchzyServer } from '../gameservers/testing/fake-matchzy';
import { matches } from '../matches/schema';

const RCON_PASSWORD = 'rcon-pw';
const clock = manualClock();
let t: TestApp;
let one: FakeMatchzyServer;
let two: FakeMatchzyServer;
let steamSeq = 7000;

beforeAll(async () => {
  one = await new FakeMatchzyServer(RCON_PASSWORD).listen();
  two = await new FakeMatchzyServer(RCON_PASSWORD).listen();
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((r) => probe.close(() => r()));
  const publicUrl = `http://127.0.0.1:${port}`;
  t = await createTestApp({
    clock,
    env: {
      GAME_SERVER_PROVIDER: 'matchzy',
      CS2_SERVERS: [one, two].map((f) => `rcon://:${RCON_PASSWORD}@127.0.0.1:${f.port}`).join(','),
      CS2_RCON_TIMEOUT_MS: '2000',
      PUBLIC_URL: publicUrl,
      PICK_TIMEOUT_MS: '1000',
      MATCH_MAP_POOL: 'de_dust2',
      JOBS_POLL_MS: '0',
      MATCH_CONNECT_TIMEOUT_MS: '0',
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
  await t?.close();
  await one?.close();
  await two?.close();
});

const advance = async (ms: number) => {
  clock.advance(ms);
  await t.app.ctx.jobs.runDue();
};
const matchRow = async (id: string) =>
  (await t.app.ctx.db.select().from(matches).where(eq(matches.id, id)))[0];

describe('move on MatchZy', () => {
  it('ends the match on the old server, loads it on the other one, and the old one is shut out', async () => {
    const admin = await createTestUser(t.app, { role: 'ADMIN' });
    const players = await Promise.all(
      Array.from({ length: 10 }, () =>
        createTestUser(t.app, { steamId: String(76561197960265728n + BigInt(++steamSeq)) }),
      ),
    );
    const matchId = await startMatch(
      t.app,
      players.map((p) => p.id),
    );
    for (let i = 0; i < 20 && !(await matchRow(matchId)).serverGotv; i++) await advance(1_000);
    await expect.poll(() => one.gamestate).toBe('warmup');
    const before = await leaseOfMatch(t.app.ctx.db, matchId);
    expect(before?.server).toBe(`127.0.0.1:${one.port}`);
    expect(one.matchid).toBe(before?.gameMatchId);

    const res = await t.app.inject({
      method: 'POST',
      url: `/api/admin/matches/${matchId}/move`,
      headers: bearer(admin.token),
      payload: { reason: 'server one stutters' },
    });
    expect(res.statusCode).toBe(200);
    const after = await leaseOfMatch(t.app.ctx.db, matchId);
    expect(after?.server).toBe(`127.0.0.1:${two.port}`);
    // GOTV on the connect port + 5 (pool.ts), of the new server.
    expect((await matchRow(matchId)).serverGotv).toBe(`127.0.0.1:${two.port + 5}`);
    // The old server ends our match; the new one loads it (the load job runs at once).
    await expect.poll(() => one.commands).toContain('get5_endmatch');
    await expect.poll(() => one.gamestate).toBe('none');
    await advance(0);
    await expect.poll(() => two.gamestate).toBe('warmup');
    expect(two.matchid).toBe(after?.gameMatchId);

    // The old server's secret no longer opens the webhook.
    const stale = await one.sendEvent({
      event: 'going_live',
      matchid: String(before?.gameMatchId),
      map_number: 0,
    });
    expect(stale.status).toBe(401);
    expect((await matchRow(matchId)).liveAt).toBeNull();
  });
});
