// biome-ignore-all lint/suspicious/noExplicitAny: Matrix JSON answers are inspected loosely.
/**
 * Chat module: provisioning (every user gets a Matrix account and joins the global room), the
 * `matrix` session at login, match rooms (players only), the avatar route, and that the embedded
 * homeserver keeps everything across a restart. Provisioning and match rooms run against the
 * embedded homeserver and, when SYNAPSE_URL + SYNAPSE_SHARED_SECRET are set, against Synapse.
 */
import { globalRoomAlias } from '@openpug/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createTestApp,
  createTestUser,
  openTestDatabase,
  seedMatch,
  type TestApp,
} from '../../../test/helpers';
import { matches } from '../../db/schema';
import { findUserById } from '../accounts/service';
import { sessionResponse } from '../accounts/session';
import { MatrixAdmin, type MatrixResponse } from './matrix-admin';
import {
  chatServerName,
  closeMatchRoomWork,
  createMatchRoom,
  matchRoomJoinsSettled,
  matchRoomOf,
  matrixSessionFor,
  whenRoomWritten,
} from './service';

const synapseEnv =
  process.env.SYNAPSE_URL && process.env.SYNAPSE_SHARED_SECRET
    ? {
        MATRIX_HOMESERVER_URL: process.env.SYNAPSE_URL,
        MATRIX_SHARED_SECRET: process.env.SYNAPSE_SHARED_SECRET,
      }
    : null;
const modes: { name: string; env: Record<string, string> }[] = [
  { name: 'embedded', env: {} },
  ...(synapseEnv ? [{ name: 'synapse', env: synapseEnv }] : []),
];

async function mx(base: string, method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
}
const enc = encodeURIComponent;

describe.each(modes)('chat provisioning on $name', ({ name, env }) => {
  let t: TestApp;
  let hs: string;
  beforeAll(async () => {
    t = await createTestApp({ env });
    const url = await t.listen();
    hs = name === 'embedded' ? url : env.MATRIX_HOMESERVER_URL;
  });
  afterAll(async () => {
    await t.close();
  });

  it('gives a new user a Matrix account in the global room, the same one on every login', async () => {
    const user = await createTestUser(t.app);
    await t.app.ctx.bus.emit('user.created', { userId: user.id });
    const session = await matrixSessionFor(t.app.ctx, user.id);
    const server = chatServerName(t.app.ctx);
    expect(session.userId).toBe(`@${user.id}:${server}`);
    expect(session.homeserverUrl).toBe(name === 'embedded' ? t.app.ctx.config.PUBLIC_URL : hs);
    const who = await mx(hs, 'GET', '/_matrix/client/v3/account/whoami', session.accessToken);
    expect(who.json.user_id).toBe(session.userId);
    const global = await mx(hs, 'GET', `/_matrix/client/v3/directory/room/${enc(globalRoomAlias(server))}`);
    const rooms = await mx(hs, 'GET', '/_matrix/client/v3/joined_rooms', session.accessToken);
    expect(rooms.json.joined_rooms).toContain(global.json.room_id);
    const again = await matrixSessionFor(t.app.ctx, user.id);
    expect(again.userId).toBe(session.userId);
    expect((await mx(hs, 'GET', '/_matrix/client/v3/account/whoami', again.accessToken)).status).toBe(200);
  });

  it('login answers carry the matrix session; a revoked token is replaced', async () => {
    const user = await createTestUser(t.app);
    const row = (await findUserById(t.app.ctx.db, user.id))!;
    const first = (await sessionResponse(t.app.ctx, row)).matrix as { accessToken: string; userId: string };
    expect(first.userId).toBe(`@${user.id}:${chatServerName(t.app.ctx)}`);
    await mx(hs, 'POST', '/_matrix/client/v3/logout', first.accessToken, {});
    const second = (await sessionResponse(t.app.ctx, row)).matrix as { accessToken: string };
    expect(second.accessToken).not.toBe(first.accessToken);
    expect((await mx(hs, 'GET', '/_matrix/client/v3/account/whoami', second.accessToken)).status).toBe(200);
  });

  it('a match room holds its players, only them, and is created once', async () => {
    const players = await Promise.all([0, 1, 2].map(() => createTestUser(t.app)));
    const spectator = await createTestUser(t.app);
    const matchId = crypto.randomUUID();
    const roomId = await createMatchRoom(
      t.app.ctx,
      matchId,
      players.map((p) => p.id),
    );
    expect(
      await createMatchRoom(
        t.app.ctx,
        matchId,
        players.map((p) => p.id),
      ),
    ).toBe(roomId);
    expect(await matchRoomOf(t.app.ctx, matchId)).toBe(roomId);
    const s0 = await matrixSessionFor(t.app.ctx, players[0].id);
    const send = await mx(
      hs,
      'PUT',
      `/_matrix/client/v3/rooms/${enc(roomId)}/send/m.room.message/m1`,
      s0.accessToken,
      {
        msgtype: 'm.text',
        body: 'glhf',
      },
    );
    expect(send.status).toBe(200);
    const members = await mx(
      hs,
      'GET',
      `/_matrix/client/v3/rooms/${enc(roomId)}/joined_members`,
      s0.accessToken,
    );
    const ids = await Promise.all(players.map(async (p) => (await matrixSessionFor(t.app.ctx, p.id)).userId));
    expect(Object.keys(members.json.joined)).toEqual(expect.arrayContaining(ids));
    const watcher = await matrixSessionFor(t.app.ctx, spectator.id);
    const read = await mx(
      hs,
      'GET',
      `/_matrix/client/v3/rooms/${enc(roomId)}/messages?dir=b`,
      watcher.accessToken,
    );
    expect(read.status).toBe(403);
    const join = await mx(hs, 'POST', `/_matrix/client/v3/join/${enc(roomId)}`, watcher.accessToken, {});
    expect(join.status).toBe(403);
  });

  it("a match room is named after the match's teams, as the match page names them", async () => {
    const players = await Promise.all([0, 1].map(() => createTestUser(t.app)));
    const matchId = await seedMatch(t.app, 'active', players);
    const roomId = await createMatchRoom(
      t.app.ctx,
      matchId,
      players.map((p) => p.id),
    );
    const s0 = await matrixSessionFor(t.app.ctx, players[0].id);
    const name = await mx(
      hs,
      'GET',
      `/_matrix/client/v3/rooms/${enc(roomId)}/state/m.room.name/`,
      s0.accessToken,
    );
    expect(name.status).toBe(200);
    expect(name.json.name).toBe('team_a vs team_b');
  });
});

describe.skipIf(!synapseEnv)('two instances on one Synapse', () => {
  it('provisioning at once on both gives one bot and one global room; browsers get MATRIX_PUBLIC_URL', async () => {
    const database = await openTestDatabase();
    const env: Record<string, string> = { ...synapseEnv, MATRIX_PUBLIC_URL: 'https://pug.example' };
    const a = await createTestApp({ database, env });
    const b = await createTestApp({ database, env });
    try {
      const [ua, ub] = [await createTestUser(a.app), await createTestUser(b.app)];
      const [sa, sb] = await Promise.all([
        matrixSessionFor(a.app.ctx, ua.id),
        matrixSessionFor(b.app.ctx, ub.id),
      ]);
      // Browsers are told the public address; openpug itself keeps talking to the internal one.
      expect(sa.homeserverUrl).toBe('https://pug.example');
      const hs = env.MATRIX_HOMESERVER_URL;
      const server = chatServerName(a.app.ctx);
      const global = await mx(hs, 'GET', `/_matrix/client/v3/directory/room/${enc(globalRoomAlias(server))}`);
      for (const session of [sa, sb]) {
        const rooms = await mx(hs, 'GET', '/_matrix/client/v3/joined_rooms', session.accessToken);
        expect(rooms.json.joined_rooms).toContain(global.json.room_id);
      }
    } finally {
      await a.app.close();
      await b.close();
    }
  });
});

describe('a room another instance is still creating', () => {
  // Synapse's answer to a join while the room's alias is reserved but its join rules are not
  // written yet (synapse/handlers/room.py create_room: the alias first, then the events): no join
  // rules count as invite-only, 403 M_FORBIDDEN "You are not invited to this room."
  // (synapse/event_auth.py line 766).
  const notInvited = {
    status: 403,
    json: { errcode: 'M_FORBIDDEN', error: 'You are not invited to this room.' },
  };
  const homeserver = (answers: MatrixResponse[]) => {
    const asked: string[] = [];
    const transport = async (_method: string, path: string): Promise<MatrixResponse> => {
      asked.push(path);
      return answers.shift() ?? { status: 200, json: { room_id: '!r:x' } };
    };
    return { admin: new MatrixAdmin(transport, 'secret'), asked };
  };

  it('is joined once it is written', async () => {
    const { admin, asked } = homeserver([notInvited, notInvited]);
    expect(await whenRoomWritten(() => admin.join('token', '!r:x'))).toBe('!r:x');
    expect(asked).toEqual(Array(3).fill('/_matrix/client/v3/join/!r%3Ax'));
  });

  it('a refusal that lasts is thrown after ~3 s; other failures at once', async () => {
    const lasting = homeserver(Array(20).fill(notInvited));
    vi.useFakeTimers();
    try {
      const refused = expect(whenRoomWritten(() => lasting.admin.join('token', '!r:x'))).rejects.toThrow(
        /not invited/,
      );
      // Waits of 50, 100, … 1,600 ms between seven tries: 3,150 ms in all.
      await vi.advanceTimersByTimeAsync(3_100);
      expect(lasting.asked.length).toBe(6);
      await vi.advanceTimersByTimeAsync(50);
      await refused;
    } finally {
      vi.useRealTimers();
    }
    expect(lasting.asked.length).toBe(7);
    const gone = homeserver([{ status: 404, json: { errcode: 'M_NOT_FOUND', error: 'Unknown room' } }]);
    await expect(whenRoomWritten(() => gone.admin.join('token', '!r:x'))).rejects.toThrow(/M_NOT_FOUND/);
    expect(gone.asked.length).toBe(1);
  });
});

describe('match rooms follow the match status', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('players put in a match join its room; later patches change nothing', async () => {
    const players = await Promise.all([0, 1].map(() => createTestUser(t.app)));
    const matchId = crypto.randomUUID();
    for (const p of players)
      await t.app.ctx.bus.emit('status.patch', {
        userId: p.id,
        patch: { match: { active: true, matchId, status: 'playerveto' } },
      });
    await t.app.ctx.bus.emit('status.patch', {
      userId: players[0].id,
      patch: { match: { active: true, matchId, status: 'mapveto' } },
    });
    await matchRoomJoinsSettled(t.app.ctx);
    const roomId = await matchRoomOf(t.app.ctx, matchId);
    expect(roomId).toBeTruthy();
    for (const p of players) {
      const s = await matrixSessionFor(t.app.ctx, p.id);
      const rooms = await t.app.inject({
        method: 'GET',
        url: '/_matrix/client/v3/joined_rooms',
        headers: { authorization: `Bearer ${s.accessToken}` },
      });
      expect(rooms.json().joined_rooms).toContain(roomId);
    }
  });
});

describe('match room work that can wait no longer', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const patchIntoMatch = (userId: string, matchId: string) =>
    t.app.ctx.bus.emit('status.patch', {
      userId,
      patch: { match: { active: true, matchId, status: 'playerveto' } },
    });

  it('a join that waited until after its match ended is dropped: no room for a match that is over', async () => {
    const players = await Promise.all([0, 1].map(() => createTestUser(t.app)));
    const matchId = await seedMatch(t.app, 'finished', players);
    for (const p of players) await patchIntoMatch(p.id, matchId);
    await matchRoomJoinsSettled(t.app.ctx);
    expect(await matchRoomOf(t.app.ctx, matchId)).toBeNull();
  });

  it('a match found over is not read again: its later joins drop without a statement', async () => {
    const players = await Promise.all([0, 1].map(() => createTestUser(t.app)));
    const matchId = await seedMatch(t.app, 'finished', players);
    await patchIntoMatch(players[0].id, matchId);
    await matchRoomJoinsSettled(t.app.ctx);
    // Not a transition the product makes (over is final): here it shows that the second join
    // went by what the first one read, or it would make the room.
    await t.app.ctx.db.update(matches).set({ status: 'active' }).where(eq(matches.id, matchId));
    await patchIntoMatch(players[1].id, matchId);
    await matchRoomJoinsSettled(t.app.ctx);
    expect(await matchRoomOf(t.app.ctx, matchId)).toBeNull();
  });

  it('a closing app drops the steps still in line instead of running them on a closing database', async () => {
    const players = await Promise.all([0, 1].map(() => createTestUser(t.app)));
    const matchId = await seedMatch(t.app, 'active', players);
    await closeMatchRoomWork(t.app.ctx);
    for (const p of players) await patchIntoMatch(p.id, matchId);
    await matchRoomJoinsSettled(t.app.ctx);
    expect(await matchRoomOf(t.app.ctx, matchId)).toBeNull();
  });
});

describe('avatar route', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it("redirects to the user's avatar", async () => {
    const user = await createTestUser(t.app, { avatar: 'https://avatars.example.test/a.png' });
    const res = await t.app.inject({ url: `/api/users/matrixavatar/${enc(`@${user.id}:localhost`)}` });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('https://avatars.example.test/a.png');
  });

  it('draws the same identicon for the same sender, another for another, also for unknown senders', async () => {
    const user = await createTestUser(t.app);
    const get = (sender: string) => t.app.inject({ url: `/api/users/matrixavatar/${enc(sender)}` });
    const a = await get(`@${user.id}:localhost`);
    expect(a.statusCode).toBe(200);
    expect(a.headers['content-type']).toContain('image/svg+xml');
    expect(a.body).toMatch(/^<svg /);
    expect((await get(`@${user.id}:localhost`)).body).toBe(a.body);
    const other = await get('@someone-else:localhost');
    expect(other.statusCode).toBe(200);
    expect(other.body).not.toBe(a.body);
  });

  it('refuses an absurdly long sender without drawing anything', async () => {
    const tooLong = await t.app.inject({ url: `/api/users/matrixavatar/%40${'y'.repeat(260)}` });
    expect(tooLong.statusCode).toBe(414);
    expect(tooLong.headers['content-type']).not.toContain('svg');
  });
});

describe('embedded homeserver across a restart', () => {
  it('keeps accounts, tokens, rooms, messages and receipts', async () => {
    const database = await openTestDatabase();
    try {
      const first = await createTestApp({ database });
      const url1 = await first.listen();
      const user = await createTestUser(first.app);
      const session = await matrixSessionFor(first.app.ctx, user.id);
      const created = await mx(url1, 'POST', '/_matrix/client/v3/createRoom', session.accessToken, {
        name: 'kept',
      });
      const roomId = created.json.room_id as string;
      const sent = await mx(
        url1,
        'PUT',
        `/_matrix/client/v3/rooms/${enc(roomId)}/send/m.room.message/k1`,
        session.accessToken,
        {
          msgtype: 'm.text',
          body: 'still here',
        },
      );
      await mx(
        url1,
        'POST',
        `/_matrix/client/v3/rooms/${enc(roomId)}/receipt/m.read/${enc(sent.json.event_id)}`,
        session.accessToken,
        {},
      );
      const since = (await mx(url1, 'GET', '/_matrix/client/v3/sync?timeout=0', session.accessToken)).json
        .next_batch;
      await first.close();

      const second = await createTestApp({ database });
      const url2 = await second.listen();
      try {
        expect((await mx(url2, 'GET', '/_matrix/client/v3/account/whoami', session.accessToken)).status).toBe(
          200,
        );
        const msgs = await mx(
          url2,
          'GET',
          `/_matrix/client/v3/rooms/${enc(roomId)}/messages?dir=b`,
          session.accessToken,
        );
        expect(msgs.json.chunk.map((e: any) => e.content.body)).toContain('still here');
        const sync = await mx(url2, 'GET', '/_matrix/client/v3/sync?timeout=0', session.accessToken);
        const receipt = sync.json.rooms.join[roomId].ephemeral.events.find(
          (e: any) => e.type === 'm.receipt',
        );
        expect(Object.keys(receipt.content)).toEqual([sent.json.event_id]);
        // The old sync token still works and new events continue after it.
        await mx(
          url2,
          'PUT',
          `/_matrix/client/v3/rooms/${enc(roomId)}/send/m.room.message/k2`,
          session.accessToken,
          {
            msgtype: 'm.text',
            body: 'after restart',
          },
        );
        const delta = await mx(
          url2,
          'GET',
          `/_matrix/client/v3/sync?timeout=0&since=${enc(since)}`,
          session.accessToken,
        );
        expect(delta.json.rooms.join[roomId].timeline.events.map((e: any) => e.content.body)).toEqual([
          'after restart',
        ]);
      } finally {
        await second.close();
      }
    } finally {
      await database.dispose();
    }
  });
});
