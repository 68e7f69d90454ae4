import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestUser, manualClock, startMatch } from '../../../test/helpers';
import { createMatchTestApp, type MatchTestApp } from '../../../test/match-app';
import { leaseOfMatch } from '../gameservers/leases';
import { FakeMatchzyServer } from '../gameservers/testing/fake-matchzy';

const RCON_PASSWORD = 'rcon-pw';
const clock = manualClock();
let t: MatchTestApp;
let one: FakeMatchzyServer;
let two: FakeMatchzyServer;
let steamSeq = 7000;

beforeAll(async () => {
  one = await new FakeMatchzyServer(RCON_PASSWORD).listen();
  two = await new FakeMatchzyServer(RCON_PASSWORD).listen();
  t = await createMatchTestApp({
    clock,
    matchzy: { servers: [one, two], password: RCON_PASSWORD },
    env: {
      MATCH_CONNECT_TIMEOUT_MS: '0',
    },
  });
});
afterAll(async () => {
  await t?.close();
  await one?.close();
  await two?.close();
});

const advance = (ms: number) => t.advance(ms);
const matchRow = (id: string) => t.matchRow(id);

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
