/**
 * Arena servers against the fake CS2 server (gameservers/testing/fake-matchzy.ts), which answers
 * RCON `status_json` in the shape of a real CS2 answer (GOTV bot, a connecting slot, players):
 * a linked player on a server is "In Arena" for their friends, leaves → not; a server that stops
 * answering clears its players; admins add, change and delete servers; ARENA_SERVERS seeds once.
 */
import type { SocialChangedStatus, UserStatus } from '@openpug/shared';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  bearer,
  connectSocket,
  createTestApp,
  createTestUser,
  manualClock,
  openTestDatabase,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { jobs } from '../../jobs/schema';
import { FakeMatchzyServer } from '../gameservers/testing/fake-matchzy';
import { getStatus } from '../presence/service';
import { arenaPollJob } from './service';

const PASSWORD = 'arena-rcon';
const POLL_MS = 5_000;
let steamSeq = 4000;
/** Real individual SteamID64s (76561197960265728 + account id), as CS2 reports them. */
const nextSteamId = () => String(76561197960265728n + BigInt(++steamSeq));

/** The next socialChangedStatus about `userId` on `socket` that `matches`. */
const statusOf = (socket: Socket, userId: string, matches: (s: UserStatus) => boolean) =>
  new Promise<UserStatus>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no socialChangedStatus')), 5_000);
    const onStatus = (p: SocialChangedStatus) => {
      if (p.userId !== userId || !matches(p.status)) return;
      clearTimeout(timer);
      socket.off('socialChangedStatus', onStatus);
      resolve(p.status);
    };
    socket.on('socialChangedStatus', onStatus);
  });

async function befriend(t: TestApp, a: TestUser, b: TestUser): Promise<void> {
  const req = await t.app.inject({
    method: 'POST',
    url: '/api/friends',
    payload: { recipient: b.id },
    headers: bearer(a.token),
  });
  await t.app.inject({
    method: 'PATCH',
    url: `/api/friends/${req.json()._id}`,
    payload: { accepted: true },
    headers: bearer(b.token),
  });
}

describe('arena servers', () => {
  const clock = manualClock();
  let t: TestApp;
  let fake: FakeMatchzyServer;
  let admin: TestUser;
  const sockets: Socket[] = [];
  const list = async (user: TestUser) =>
    (await t.app.inject({ url: '/api/arena', headers: bearer(user.token) })).json().servers;
  const adminList = async () =>
    (await t.app.inject({ url: '/api/admin/arena', headers: bearer(admin.token) })).json().servers;
  /** One poll interval passes: the persisted job fires and asks every server. */
  const poll = async () => {
    clock.advance(POLL_MS);
    await t.app.ctx.jobs.runDue();
  };

  beforeAll(async () => {
    fake = await new FakeMatchzyServer(PASSWORD).listen();
    t = await createTestApp({
      clock,
      env: {
        ARENA_SERVERS: `rcon://:${PASSWORD}@127.0.0.1:${fake.port}?connect=203.0.113.7:27015&name=Deathmatch%20EU`,
        ARENA_POLL_MS: String(POLL_MS),
        CS2_RCON_TIMEOUT_MS: '1500',
        JOBS_POLL_MS: '0',
      },
    });
    await t.listen();
    admin = await createTestUser(t.app, { role: 'ADMIN' });
    // The first poll is armed for the start: wait until it has asked the seeded server.
    await t.app.ctx.jobs.runDue();
    await vi.waitFor(async () => expect((await adminList())[0].polledAt).not.toBeNull());
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await t.close();
    await fake.close();
  });

  it('seeds ARENA_SERVERS and lists them for players with the connect address, not the RCON one', async () => {
    const player = await createTestUser(t.app);
    expect(await list(player)).toEqual([
      {
        _id: expect.any(String),
        name: 'Deathmatch EU',
        address: '203.0.113.7:27015',
        online: true,
        players: 0,
      },
    ]);
    expect(await adminList()).toEqual([
      expect.objectContaining({ name: 'Deathmatch EU', rconAddress: `127.0.0.1:${fake.port}` }),
    ]);
    expect(JSON.stringify(await adminList())).not.toContain(PASSWORD);
    expect((await t.app.inject('/api/arena')).statusCode).toBe(401);
    // One row for the poll, re-armed one interval ahead each time it fires.
    const rows = (await t.app.ctx.db.select().from(jobs)).filter((j) => j.kind === arenaPollJob.kind);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ firedAt: null, dueAt: clock.now() + POLL_MS });
  });

  it('sets inArena for a linked player on the server (friends hear it) and clears it when they leave', async () => {
    const steamId = nextSteamId();
    const ann = await createTestUser(t.app, { name: 'Ann', steamId });
    const bob = await createTestUser(t.app, { name: 'Bob' });
    const stranger = nextSteamId(); // on the server, not an openpug player: counted, nobody's status
    await befriend(t, ann, bob);
    const bobTab = await connectSocket(t.url, bob.token);
    sockets.push(bobTab);

    fake.connect(steamId);
    fake.connect(stranger);
    const joined = statusOf(bobTab, ann.id, (s) => s.inArena);
    await poll();
    expect(await joined).toMatchObject({ inArena: true });
    expect((await getStatus(t.app.ctx, ann.id)).inArena).toBe(true);
    expect(await list(bob)).toEqual([expect.objectContaining({ online: true, players: 2 })]);

    // Another poll with the same players patches nothing.
    let heard = 0;
    const count = (p: SocialChangedStatus) => p.userId === ann.id && heard++;
    bobTab.on('socialChangedStatus', count);
    await poll();
    await new Promise((r) => setTimeout(r, 100));
    expect(heard).toBe(0);
    bobTab.off('socialChangedStatus', count);

    fake.disconnect(steamId);
    const left = statusOf(bobTab, ann.id, (s) => !s.inArena);
    await poll();
    expect(await left).toMatchObject({ inArena: false });
    expect(await list(bob)).toEqual([expect.objectContaining({ players: 1 })]);
    fake.disconnect(stranger);
  });

  it("clears a silent server's players after the next poll and shows it offline", async () => {
    const steamId = nextSteamId();
    const cat = await createTestUser(t.app, { name: 'Cat', steamId });
    fake.connect(steamId);
    await poll();
    expect((await getStatus(t.app.ctx, cat.id)).inArena).toBe(true);

    fake.mute = true; // the server stops answering RCON (crashed, changing level, firewalled)
    try {
      await poll();
      expect((await getStatus(t.app.ctx, cat.id)).inArena).toBe(false);
      expect(await list(cat)).toEqual([expect.objectContaining({ online: false, players: 0 })]);
    } finally {
      fake.mute = false;
    }
    await poll(); // back: Cat is still connected
    expect((await getStatus(t.app.ctx, cat.id)).inArena).toBe(true);
    fake.disconnect(steamId);
    await poll();
    expect((await getStatus(t.app.ctx, cat.id)).inArena).toBe(false);
  });

  it('lets admins add, change and delete servers, and refuses players and bad addresses', async () => {
    const player = await createTestUser(t.app);
    const body = {
      name: 'Retakes',
      address: '198.51.100.4:27016',
      rconAddress: '10.0.0.4:27016',
      rconPassword: 'pw',
    };
    const send = (user: TestUser, method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({ method, url, payload, headers: bearer(user.token) });

    for (const res of [
      await t.app.inject({ url: '/api/admin/arena', headers: bearer(player.token) }),
      await send(player, 'POST', '/api/admin/arena', body),
    ])
      expect({ status: res.statusCode, msg: res.json().errors.msg }).toEqual({
        status: 403,
        msg: 'UNAUTHORIZED',
      });

    for (const bad of [
      { address: 'not an address' },
      { rconAddress: '10.0.0.4' },
      { address: 'host:70000' },
    ]) {
      const res = await send(admin, 'POST', '/api/admin/arena', { ...body, ...bad });
      expect({ status: res.statusCode, msg: res.json().errors.msg }).toEqual({
        status: 422,
        msg: 'ARENA_ADDRESS_INVALID',
      });
    }
    expect(await adminList()).toHaveLength(1); // nothing was added

    const created = await send(admin, 'POST', '/api/admin/arena', body);
    expect(created.statusCode).toBe(201);
    const id = created.json()._id;
    expect(created.json()).toMatchObject({ name: 'Retakes', rconAddress: '10.0.0.4:27016', online: false });
    expect(created.json()).not.toHaveProperty('rconPassword');
    expect((await list(player)).map((s: { name: string }) => s.name)).toEqual(['Deathmatch EU', 'Retakes']);

    expect((await send(player, 'PATCH', `/api/admin/arena/${id}`, { name: 'x' })).statusCode).toBe(403);
    expect((await send(admin, 'PATCH', `/api/admin/arena/${id}`, { address: 'nope' })).statusCode).toBe(422);
    const renamed = await send(admin, 'PATCH', `/api/admin/arena/${id}`, { name: 'Retakes EU' });
    expect(renamed.json()).toMatchObject({ name: 'Retakes EU', address: '198.51.100.4:27016' });

    expect((await send(player, 'DELETE', `/api/admin/arena/${id}`)).statusCode).toBe(403);
    expect((await send(admin, 'DELETE', `/api/admin/arena/${id}`)).statusCode).toBe(200);
    expect((await send(admin, 'DELETE', `/api/admin/arena/${id}`)).statusCode).toBe(404);
    expect((await send(admin, 'PATCH', `/api/admin/arena/${id}`, { name: 'x' })).statusCode).toBe(404);
    expect((await list(player)).map((s: { name: string }) => s.name)).toEqual(['Deathmatch EU']);
  });

  it("takes a deleted server's players out of the arena at once", async () => {
    const steamId = nextSteamId();
    const dan = await createTestUser(t.app, { name: 'Dan', steamId });
    fake.connect(steamId);
    await poll();
    expect((await getStatus(t.app.ctx, dan.id)).inArena).toBe(true);
    const [server] = await adminList();
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/arena/${server._id}`,
      headers: bearer(admin.token),
    });
    expect(res.statusCode).toBe(200);
    expect((await getStatus(t.app.ctx, dan.id)).inArena).toBe(false);
    expect(await adminList()).toEqual([]);
  });
});

describe('ARENA_SERVERS seed', () => {
  it('is stored on first start only: a restart neither re-adds nor overwrites the admins’ list', async () => {
    const database = await openTestDatabase();
    const env = (servers: string) => ({ ARENA_SERVERS: servers, ARENA_POLL_MS: '0' });
    const names = async (t: TestApp) => {
      const admin = await createTestUser(t.app, { role: 'ADMIN' });
      return (await t.app.inject({ url: '/api/admin/arena', headers: bearer(admin.token) }))
        .json()
        .servers.map((s: { name: string; address: string }) => `${s.name} ${s.address}`);
    };
    try {
      let t = await createTestApp({
        database,
        env: env('rcon://:a@10.0.0.1:27015?name=DM,rcon://:b@10.0.0.2:27015?connect=dm2.example.org:27015'),
      });
      await t.app.ready();
      expect(await names(t)).toEqual(['DM 10.0.0.1:27015', 'dm2.example.org:27015 dm2.example.org:27015']);
      const admin = await createTestUser(t.app, { role: 'ADMIN' });
      const [first, second] = (
        await t.app.inject({ url: '/api/admin/arena', headers: bearer(admin.token) })
      ).json().servers;
      for (const s of [first, second])
        await t.app.inject({
          method: 'DELETE',
          url: `/api/admin/arena/${s._id}`,
          headers: bearer(admin.token),
        });
      await t.close();

      t = await createTestApp({ database, env: env('rcon://:c@10.0.0.3:27015?name=New') });
      await t.app.ready();
      expect(await names(t)).toEqual([]);
      await t.close();
    } finally {
      await database.dispose();
    }
  });

  it('refuses a malformed ARENA_SERVERS at start', async () => {
    const { loadConfig } = await import('../../config');
    expect(() => loadConfig({ ARENA_SERVERS: 'http://10.0.0.1:27015' })).toThrow(/ARENA_SERVERS/);
    expect(() => loadConfig({ ARENA_SERVERS: 'rcon://10.0.0.1:27015' })).toThrow(/password/);
  });
});
