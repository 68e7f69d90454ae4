// biome-ignore-all lint/suspicious/noExplicitAny: Matrix JSON and audit entries are inspected loosely.
/**
 * Chat moderation (docs/contract.md §3): admins in the global and match rooms, a match's captains
 * in its room; redact, mute, kick, ban, unban through POST /api/chat/moderation, audited; a
 * product ban bans from the global room. Runs against the embedded homeserver and, when
 * SYNAPSE_URL + SYNAPSE_SHARED_SECRET are set, against Synapse. A chat message reported through
 * the Matrix API reaches the admin reports queue (embedded homeserver).
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  createTestUser,
  seedMatch,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { matchPlayers } from '../matches/schema';
import { chatServerName, createMatchRoom, ensureBot, ensureGlobalRoom, matrixSessionFor } from './service';

const synapse =
  process.env.SYNAPSE_URL && process.env.SYNAPSE_SHARED_SECRET
    ? {
        MATRIX_HOMESERVER_URL: process.env.SYNAPSE_URL,
        MATRIX_SHARED_SECRET: process.env.SYNAPSE_SHARED_SECRET,
      }
    : null;
const modes = [
  { name: 'embedded', env: {} as Record<string, string> },
  ...(synapse ? [{ name: 'synapse', env: synapse }] : []),
];
const enc = encodeURIComponent;

describe.each(modes)('chat moderation on $name', ({ name, env }) => {
  let t: TestApp;
  let hs: string;
  let admin: TestUser;
  let globalRoom: string;
  let txn = 0;
  beforeAll(async () => {
    t = await createTestApp({ env });
    const url = await t.listen();
    hs = name === 'embedded' ? url : env.MATRIX_HOMESERVER_URL;
    admin = await createTestUser(t.app, { role: 'ADMIN' });
    globalRoom = await ensureGlobalRoom(t.app.ctx);
    if (name === 'synapse') {
      // Synapse's database outlives test runs: #global was created by an earlier run's bot. The
      // bot of this run joins it and is made its admin by the earlier one, through Synapse's
      // admin API (synapse/rest/admin/rooms.py, MakeRoomAdminRestServlet), as a deployment's own
      // bot already is.
      const bot = await ensureBot(t.app.ctx);
      await mx('POST', `/join/${enc(globalRoom)}`, bot.accessToken, {});
      const res = await fetch(`${hs}/_synapse/admin/v1/rooms/${enc(globalRoom)}/make_room_admin`, {
        method: 'POST',
        headers: { ...bearer(bot.accessToken), 'content-type': 'application/json' },
        body: JSON.stringify({ user_id: bot.matrixUserId }),
      });
      expect(res.status, await res.text()).toBe(200);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  const mx = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(`${hs}/_matrix/client/v3${path}`, {
      method,
      headers: { ...bearer(token), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, json: (await res.json()) as Record<string, any> };
  };
  /** A player with a chat account, in the global room; `token` is their Matrix token. */
  const player = async () => {
    const user = await createTestUser(t.app);
    const session = await matrixSessionFor(t.app.ctx, user.id);
    return { ...user, mxid: session.userId, mx: session.accessToken };
  };
  const say = (p: { mx: string }, roomId: string, body: string) =>
    mx('PUT', `/rooms/${enc(roomId)}/send/m.room.message/t${++txn}`, p.mx, { msgtype: 'm.text', body });
  /** The member event's content, read by `reader` (the admin, who is in the global room). */
  const membership = async (roomId: string, mxid: string, reader?: { mx: string }) =>
    (
      await mx(
        'GET',
        `/rooms/${enc(roomId)}/state/m.room.member/${enc(mxid)}`,
        reader?.mx ?? (await matrixSessionFor(t.app.ctx, admin.id)).accessToken,
      )
    ).json;
  const moderate = (by: TestUser, payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/chat/moderation', headers: bearer(by.token), payload });
  const refusal = (res: { statusCode: number; json(): any }) => [res.statusCode, res.json().errors?.msg];

  it('an admin redacts, mutes, kicks, bans and unbans in the global room; each is audited', async () => {
    const p = await player();
    const sent = await say(p, globalRoom, 'something rude');
    expect(sent.status).toBe(200);
    const eventId = sent.json.event_id;

    const redact = await moderate(admin, { roomId: globalRoom, action: 'redact', eventId, reason: 'rude' });
    expect(redact.statusCode, redact.body).toBe(200);
    const read = await mx('GET', `/rooms/${enc(globalRoom)}/event/${enc(eventId)}`, p.mx);
    expect(read.json.content).toEqual({});
    expect(read.json.unsigned.redacted_because.content).toMatchObject({ reason: 'rude' });

    expect((await moderate(admin, { roomId: globalRoom, action: 'mute', userId: p.id })).statusCode).toBe(
      200,
    );
    expect((await say(p, globalRoom, 'muted')).status).toBe(403);
    expect((await moderate(admin, { roomId: globalRoom, action: 'unmute', userId: p.id })).statusCode).toBe(
      200,
    );
    expect((await say(p, globalRoom, 'unmuted')).status).toBe(200);

    expect(
      (await moderate(admin, { roomId: globalRoom, action: 'kick', userId: p.id, reason: 'cool off' }))
        .statusCode,
    ).toBe(200);
    expect(await membership(globalRoom, p.mxid)).toEqual({ membership: 'leave', reason: 'cool off' });
    expect(refusal(await moderate(admin, { roomId: globalRoom, action: 'kick', userId: p.id }))).toEqual([
      409,
      'CHAT_NOT_A_MEMBER',
    ]);
    // A kick is no ban: the player may come back.
    expect((await mx('POST', `/join/${enc(globalRoom)}`, p.mx, {})).status).toBe(200);

    expect(
      (await moderate(admin, { roomId: globalRoom, action: 'ban', userId: p.id, reason: 'spam' })).statusCode,
    ).toBe(200);
    expect(await membership(globalRoom, p.mxid)).toEqual({ membership: 'ban', reason: 'spam' });
    expect((await mx('POST', `/join/${enc(globalRoom)}`, p.mx, {})).status).toBe(403);
    expect((await moderate(admin, { roomId: globalRoom, action: 'unban', userId: p.id })).statusCode).toBe(
      200,
    );
    // Unbanned and joined again server-side: the room is in the player's list at once.
    expect((await membership(globalRoom, p.mxid)).membership).toBe('join');
    expect(refusal(await moderate(admin, { roomId: globalRoom, action: 'unban', userId: p.id }))).toEqual([
      409,
      'CHAT_NOT_BANNED',
    ]);

    const audit = (
      await t.app.inject({
        method: 'GET',
        url: `/api/admin/audit?action=chat.moderate&target=${p.id}&limit=100`,
        headers: bearer(admin.token),
      })
    ).json();
    expect(audit.docs.map((e: any) => e.after.action).reverse()).toEqual([
      'redact',
      'mute',
      'unmute',
      'kick',
      'ban',
      'unban',
    ]);
    expect(audit.docs[0]).toMatchObject({
      actor: { _id: admin.id },
      targetId: p.id,
      after: { room: 'global' },
    });
  });

  it("a match's captain moderates its room only, players but not admins or the other captain", async () => {
    const [captain, otherCaptain, p, q] = await Promise.all([player(), player(), player(), player()]);
    const matchId = await seedMatch(t.app, 'active', [captain, otherCaptain, p, q]);
    for (const c of [captain, otherCaptain])
      await t.app.ctx.db
        .update(matchPlayers)
        .set({ captain: true })
        .where(and(eq(matchPlayers.matchId, matchId), eq(matchPlayers.userId, c.id)));
    const roomId = await createMatchRoom(t.app.ctx, matchId, [captain.id, otherCaptain.id, p.id, q.id]);

    expect(refusal(await moderate(p, { roomId, action: 'mute', userId: q.id }))).toEqual([
      403,
      'UNAUTHORIZED',
    ]);
    expect(refusal(await moderate(captain, { roomId: globalRoom, action: 'mute', userId: q.id }))).toEqual([
      403,
      'UNAUTHORIZED',
    ]);
    expect(refusal(await moderate(captain, { roomId, action: 'kick', userId: otherCaptain.id }))).toEqual([
      403,
      'CHAT_TARGET_PROTECTED',
    ]);
    expect(refusal(await moderate(captain, { roomId, action: 'ban', userId: admin.id }))).toEqual([
      403,
      'CHAT_TARGET_PROTECTED',
    ]);
    expect(refusal(await moderate(captain, { roomId, action: 'ban', userId: captain.id }))).toEqual([
      400,
      'CANNOT_SANCTION_YOURSELF',
    ]);

    const sent = await say(q, roomId, 'gg ez');
    expect(
      (await moderate(captain, { roomId, action: 'redact', eventId: sent.json.event_id })).statusCode,
    ).toBe(200);
    expect((await moderate(captain, { roomId, action: 'mute', userId: q.id })).statusCode).toBe(200);
    expect((await say(q, roomId, 'muted')).status).toBe(403);
    expect((await say(q, globalRoom, 'still fine here')).status).toBe(200);
    expect((await moderate(captain, { roomId, action: 'ban', userId: q.id })).statusCode).toBe(200);
    expect((await membership(globalRoom, q.mxid)).membership).toBe('join');
    expect((await moderate(captain, { roomId, action: 'unban', userId: q.id })).statusCode).toBe(200);
    // A match room is invite-only: the bot invites, the player joins.
    expect((await membership(roomId, q.mxid, captain)).membership).toBe('join');
  });

  it('refuses bad input, unknown rooms and messages, and direct chats, changing nothing', async () => {
    const [p, q] = await Promise.all([player(), player()]);
    expect(refusal(await moderate(admin, { roomId: globalRoom, action: 'kick' }))).toEqual([422, 'MISSING']);
    expect((await moderate(admin, { roomId: 'global', action: 'kick', userId: p.id })).statusCode).toBe(422);
    expect((await moderate(admin, { roomId: globalRoom, action: 'explode', userId: p.id })).statusCode).toBe(
      422,
    );
    const unknown = `!nosuchroom:${chatServerName(t.app.ctx)}`;
    expect((await moderate(admin, { roomId: unknown, action: 'kick', userId: p.id })).statusCode).toBe(404);
    expect(
      (await moderate(admin, { roomId: globalRoom, action: 'redact', eventId: '$nosuchevent' })).statusCode,
    ).toBe(404);
    const direct = (await mx('POST', '/createRoom', p.mx, { preset: 'private_chat', invite: [q.mxid] })).json
      .room_id;
    expect((await moderate(admin, { roomId: direct, action: 'kick', userId: q.id })).statusCode).toBe(404);
    expect((await membership(globalRoom, p.mxid)).membership).toBe('join');
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/chat/moderation', payload: { roomId: globalRoom } }))
        .statusCode,
    ).toBe(401);
  });

  it('a product ban bans from the global room with its reason; lifting it unbans and joins again', async () => {
    const p = await player();
    const ban = await t.app.inject({
      method: 'POST',
      url: `/api/admin/users/${p.id}/sanctions`,
      headers: bearer(admin.token),
      payload: { kind: 'ban', reason: 'cheating' },
    });
    expect(ban.statusCode).toBe(201);
    expect(await membership(globalRoom, p.mxid)).toEqual({ membership: 'ban', reason: 'cheating' });
    const lift = await t.app.inject({
      method: 'POST',
      url: `/api/admin/sanctions/${ban.json()._id}/lift`,
      headers: bearer(admin.token),
      payload: { reason: 'appeal' },
    });
    expect(lift.statusCode).toBe(200);
    expect((await membership(globalRoom, p.mxid)).membership).toBe('join');
  });

  it.runIf(name === 'embedded')(
    'a chat message reported through the Matrix API reaches the admin reports queue',
    async () => {
      const [reporter, rude] = await Promise.all([player(), player()]);
      const sent = await say(rude, globalRoom, 'you are all noobs');
      const report = await mx(
        'POST',
        `/rooms/${enc(globalRoom)}/report/${enc(sent.json.event_id)}`,
        reporter.mx,
        {
          reason: 'insults',
          score: -50,
        },
      );
      expect([report.status, report.json]).toEqual([200, {}]);
      const queue = (
        await t.app.inject({
          method: 'GET',
          url: '/api/admin/reports?limit=50',
          headers: bearer(admin.token),
        })
      ).json();
      const filed = queue.docs.find((r: any) => r.reporter._id === reporter.id);
      expect(filed).toMatchObject({
        category: 'toxicity',
        status: 'open',
        matchId: null,
        reported: expect.objectContaining({ _id: rude.id }),
      });
      expect(filed.text).toBe('Chat message: "you are all noobs"\nReason: insults');
      // A report of one's own message is accepted by the Matrix API but files nothing.
      const own = await mx(
        'POST',
        `/rooms/${enc(globalRoom)}/report/${enc(sent.json.event_id)}`,
        rude.mx,
        {},
      );
      expect(own.status).toBe(200);
      const after = (
        await t.app.inject({
          method: 'GET',
          url: '/api/admin/reports?limit=50',
          headers: bearer(admin.token),
        })
      ).json();
      expect(after.docs.filter((r: any) => r.reporter._id === rude.id)).toEqual([]);
    },
  );
});
