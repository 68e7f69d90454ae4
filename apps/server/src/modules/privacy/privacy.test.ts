// biome-ignore-all lint/suspicious/noExplicitAny: Matrix and export JSON answers are inspected loosely.
/**
 * GDPR self-service: the export holds every category and nothing private of other players; a
 * deletion erases every personal column, keeps matches under "Deleted player", ends every session,
 * redacts the chat messages and deactivates the Matrix account (embedded homeserver, and Synapse
 * when SYNAPSE_URL + SYNAPSE_SHARED_SECRET are set), mails the old address; refusals change nothing.
 */
import { randomUUID } from 'node:crypto';
import { DELETED_PLAYER_NAME, globalRoomAlias, type PrivacyExport } from '@openpug/shared';
import { eq, or } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestUser, seedMatch, type TestApp, type TestUser } from '../../../test/helpers';
import {
  accountTokens,
  chatAccounts,
  dropAwards,
  drops,
  friendRequests,
  matches,
  matchPlayers,
  outbox,
  pushSubscriptions,
  queueAlerts,
  queueCooldowns,
  queueEntries,
  sanctions,
  userStatus,
  users,
} from '../../db/schema';
import { hashPassword } from '../accounts/service';
import { chatServerName, matrixSessionFor } from '../chat/service';
import { signSteamTicket } from '../steam/ticket';

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

const enc = encodeURIComponent;
const PASSWORD = 'correct horse battery';

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

describe.each(modes)('privacy on $name', ({ name, env }) => {
  let t: TestApp;
  let hs: string;
  beforeAll(async () => {
    t = await createTestApp({ env });
    const url = await t.listen();
    hs = name === 'embedded' ? url : env.MATRIX_HOMESERVER_URL;
  });
  afterAll(() => t.close());

  const bearer = (u: TestUser) => ({ authorization: `Bearer ${u.token}` });
  const db = () => t.app.ctx.db;

  /** A player with every personal field set and a password. */
  async function fullUser(): Promise<TestUser> {
    const short = randomUUID().slice(0, 8);
    return createTestUser(t.app, {
      passwordHash: await hashPassword(PASSWORD),
      avatar: `https://avatars.example/${short}.png`,
      steamId: `7656119${String(Math.floor(Math.random() * 1e10)).padStart(10, '0')}`,
      csgoId: `STEAM_1:0:${short}`,
      steamUrl: `https://steamcommunity.com/profiles/${short}`,
      teamSpeakId: `ts-${short}=`,
      discordId: `dc-${short}`,
      phone: `+4917${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
      whatsAppEnabled: true,
    });
  }

  /** Sends a chat message to the global room as the user; answers the event id and the room. */
  async function sayInGlobal(u: TestUser, body: string) {
    const session = await matrixSessionFor(t.app.ctx, u.id);
    const room = await mx(
      hs,
      'GET',
      `/_matrix/client/v3/directory/room/${enc(globalRoomAlias(chatServerName(t.app.ctx)))}`,
    );
    const roomId = room.json.room_id as string;
    const sent = await mx(
      hs,
      'PUT',
      `/_matrix/client/v3/rooms/${enc(roomId)}/send/m.room.message/${randomUUID()}`,
      session.accessToken,
      { msgtype: 'm.text', body },
    );
    expect(sent.status).toBe(200);
    return { eventId: sent.json.event_id as string, roomId, session };
  }

  /** A player with history: friend, requests both ways, cooldown, sanction, match, drop, push, chat. */
  async function playerWithHistory() {
    const me = await fullUser();
    const friend = await fullUser();
    const asker = await fullUser();
    const asked = await fullUser();
    const now = t.app.ctx.clock.now();
    await db()
      .insert(friendRequests)
      .values([
        {
          id: randomUUID(),
          requesterId: me.id,
          recipientId: friend.id,
          accepted: true,
          acceptedAt: new Date(now),
        },
        { id: randomUUID(), requesterId: asker.id, recipientId: me.id },
        { id: randomUUID(), requesterId: me.id, recipientId: asked.id },
      ]);
    await db()
      .insert(queueCooldowns)
      .values({
        id: randomUUID(),
        userId: me.id,
        kind: 'miss',
        offence: 1,
        createdAt: now,
        endsAt: now + 60_000,
      });
    await db()
      .insert(sanctions)
      .values({
        id: randomUUID(),
        userId: me.id,
        kind: 'mute',
        reason: 'spam in chat',
        createdBy: friend.id,
        startsAt: now - 120_000,
        endsAt: now - 60_000,
      });
    const matchId = await seedMatch(t.app, 'finished', [me, friend, asker]);
    await db()
      .update(matches)
      .set({ finishedAt: now, scoreOne: 13, scoreTwo: 7, winner: 'teamOne' })
      .where(eq(matches.id, matchId));
    await db()
      .update(matchPlayers)
      .set({
        eloBefore: 200,
        eloAfter: 216,
        kills: 21,
        deaths: 9,
        avatar: 'https://avatars.example/x.png',
        steamId: '76561190000000001',
      })
      .where(eq(matchPlayers.matchId, matchId));
    const dropId = randomUUID();
    await db().insert(drops).values({
      id: dropId,
      name: 'Golden Pug',
      image: 'pug.png',
      rarity: 'rare',
      amount: 3,
      createdAt: now,
    });
    await db()
      .insert(dropAwards)
      .values({ id: randomUUID(), dropId, ownerId: me.id, matchId, createdAt: now });
    await db()
      .insert(pushSubscriptions)
      .values({
        endpoint: `https://push.example/${me.id}`,
        userId: me.id,
        p256dh: 'key',
        auth: 'auth-secret',
        createdAt: new Date(now),
      });
    await db()
      .insert(queueAlerts)
      .values({
        userId: me.id,
        threshold: 7,
        channels: ['desktop'],
        quietFrom: 23,
        quietTo: 7,
        timeZone: 'Europe/Berlin',
        updatedAt: now,
      });
    const chat = await sayInGlobal(me, `hello from ${me.name}`);
    return { me, friend, asker, asked, matchId, chat };
  }

  it('exports every category, as an attachment, with nothing private of other players', async () => {
    const { me, friend, asker, asked, matchId, chat } = await playerWithHistory();
    const res = await t.app.inject({ method: 'GET', url: '/api/privacy/export', headers: bearer(me) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="openpug-data-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const data = res.json() as PrivacyExport;
    const [row] = await db().select().from(users).where(eq(users.id, me.id));
    expect(data.profile).toMatchObject({
      _id: me.id,
      email: me.email,
      name: me.name,
      phone: row.phone,
      hasPassword: true,
    });
    expect(data.linkedAccounts).toMatchObject({
      steam: { steamId: row.steamId, steamUrl: row.steamUrl },
      teamSpeakId: row.teamSpeakId,
      discordId: row.discordId,
      whatsApp: { phone: row.phone, enabled: true },
      matrixUserId: chat.session.userId,
    });
    expect(data.friends).toEqual([{ _id: friend.id, name: friend.name, since: expect.any(String) }]);
    expect(data.friendRequests.received.map((r) => r.from)).toEqual([{ _id: asker.id, name: asker.name }]);
    expect(data.friendRequests.sent.map((r) => r.to)).toEqual([{ _id: asked.id, name: asked.name }]);
    expect(data.queue.cooldowns).toEqual([expect.objectContaining({ kind: 'miss', offence: 1 })]);
    expect(data.sanctions).toEqual([expect.objectContaining({ kind: 'mute', reason: 'spam in chat' })]);
    expect(data.matches).toHaveLength(1);
    expect(data.matches[0]).toMatchObject({
      _id: matchId,
      status: 'finished',
      score: { teamOne: 13, teamTwo: 7 },
      stats: { kills: 21, deaths: 9 },
      eloBefore: 200,
      eloAfter: 216,
    });
    expect(data.matches[0].players.map((p) => p._id).sort()).toEqual([friend.id, asker.id].sort());
    expect(data.eloHistory).toEqual([{ matchId, at: expect.any(String), before: 200, after: 216 }]);
    expect(data.drops).toEqual([expect.objectContaining({ name: 'Golden Pug', rarity: 'rare', matchId })]);
    expect(data.notifications).toMatchObject({
      whatsAppEnabled: true,
      discordLinked: true,
      pushSubscriptions: [{ endpoint: `https://push.example/${me.id}`, createdAt: expect.any(String) }],
      queueAlert: {
        threshold: 7,
        channels: ['desktop'],
        quietHours: { from: 23, to: 7 },
        timeZone: 'Europe/Berlin',
      },
    });
    expect(data.chat.messages).toEqual([
      expect.objectContaining({
        eventId: chat.eventId,
        roomId: chat.roomId,
        content: expect.objectContaining({ body: `hello from ${me.name}` }),
      }),
    ]);
    // Nothing of the user's own secrets, nothing private of anyone else.
    const text = res.body;
    expect(text).not.toContain(row.passwordHash);
    expect(text).not.toContain('auth-secret');
    for (const other of [friend, asker, asked]) {
      const [o] = await db().select().from(users).where(eq(users.id, other.id));
      for (const value of [o.email, o.phone, o.steamId, o.teamSpeakId, o.discordId, o.avatar, o.passwordHash])
        expect(text).not.toContain(value);
    }
    expect(text).not.toContain('76561190000000001');
  });

  it('refuses a wrong password, changing nothing', async () => {
    const { me, chat } = await playerWithHistory();
    const [before] = await db().select().from(users).where(eq(users.id, me.id));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/privacy/delete',
      headers: bearer(me),
      payload: { password: 'not my password' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ errors: { msg: 'WRONG_PASSWORD' } });
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/privacy/delete',
      headers: bearer(me),
      payload: {},
    });
    expect(missing.json()).toEqual({ errors: { msg: 'MISSING' } });
    const [after] = await db().select().from(users).where(eq(users.id, me.id));
    expect(after).toEqual(before);
    expect((await t.app.inject({ method: 'GET', url: '/api/profile', headers: bearer(me) })).statusCode).toBe(
      200,
    );
    expect(
      await db()
        .select()
        .from(friendRequests)
        .where(or(eq(friendRequests.requesterId, me.id), eq(friendRequests.recipientId, me.id))),
    ).toHaveLength(3);
    expect((await mx(hs, 'GET', '/_matrix/client/v3/account/whoami', chat.session.accessToken)).status).toBe(
      200,
    );
    const event = await mx(
      hs,
      'GET',
      `/_matrix/client/v3/rooms/${enc(chat.roomId)}/event/${enc(chat.eventId)}`,
      chat.session.accessToken,
    );
    expect(event.json.content.body).toBe(`hello from ${me.name}`);
    expect(await db().select().from(outbox).where(eq(outbox.to, me.email))).toEqual([]);
  });

  it('refuses while the player is queued', async () => {
    const me = await fullUser();
    await db().insert(queueEntries).values({ userId: me.id, joinedAt: t.app.ctx.clock.now() });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/privacy/delete',
      headers: bearer(me),
      payload: { password: PASSWORD },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ errors: { msg: 'ACCOUNT_DELETE_BUSY' } });
    expect(await db().select().from(users).where(eq(users.id, me.id))).toHaveLength(1);
    await db().delete(queueEntries).where(eq(queueEntries.userId, me.id));
  });

  it('refuses while the player is banned: deleting would free the address for a new account', async () => {
    const me = await fullUser();
    const admin = await createTestUser(t.app, { role: 'ADMIN' });
    const now = t.app.ctx.clock.now();
    await db()
      .insert(sanctions)
      .values({
        id: randomUUID(),
        userId: me.id,
        kind: 'ban',
        reason: 'cheating',
        createdBy: admin.id,
        startsAt: now - 1_000,
        endsAt: now + 3_600_000,
      });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/privacy/delete',
      headers: bearer(me),
      payload: { password: PASSWORD },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ errors: { msg: 'BANNED' } });
    expect(await db().select().from(users).where(eq(users.id, me.id))).toHaveLength(1);
  });

  it('deletes the account: personal data gone, matches kept as "Deleted player", sessions and chat ended, mail sent', async () => {
    const { me, friend, matchId, chat } = await playerWithHistory();
    const [before] = await db().select().from(users).where(eq(users.id, me.id));
    await db()
      .insert(accountTokens)
      .values({
        idHash: randomUUID(),
        userId: me.id,
        kind: 'reset',
        email: me.email,
        expiresAt: new Date(t.app.ctx.clock.now() + 60_000),
      });
    const friendChat = await matrixSessionFor(t.app.ctx, friend.id);
    await mx(hs, 'POST', `/_matrix/client/v3/join/${enc(chat.roomId)}`, friendChat.accessToken, {});

    const rankedBefore = await t.app.inject({
      method: 'GET',
      url: '/api/users/ranking?limit=100',
      headers: bearer(friend),
    });
    expect(rankedBefore.body).toContain(me.id);

    const res = await t.app.inject({
      method: 'POST',
      url: '/api/privacy/delete',
      headers: bearer(me),
      payload: { password: PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });

    // Every personal row is gone.
    expect(await db().select().from(users).where(eq(users.id, me.id))).toEqual([]);
    for (const value of [
      before.email,
      before.phone,
      before.steamId,
      before.teamSpeakId,
      before.discordId,
      before.name,
    ]) {
      expect(
        await db()
          .select({ id: users.id })
          .from(users)
          .where(
            or(
              eq(users.email, value!),
              eq(users.phone, value!),
              eq(users.steamId, value!),
              eq(users.teamSpeakId, value!),
              eq(users.discordId, value!),
              eq(users.name, value!),
            ),
          ),
      ).toEqual([]);
    }
    expect(await db().select().from(accountTokens).where(eq(accountTokens.userId, me.id))).toEqual([]);
    expect(await db().select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, me.id))).toEqual(
      [],
    );
    expect(
      await db()
        .select()
        .from(friendRequests)
        .where(or(eq(friendRequests.requesterId, me.id), eq(friendRequests.recipientId, me.id))),
    ).toEqual([]);
    expect(await db().select().from(queueCooldowns).where(eq(queueCooldowns.userId, me.id))).toEqual([]);
    expect(await db().select().from(sanctions).where(eq(sanctions.userId, me.id))).toEqual([]);
    expect(await db().select().from(userStatus).where(eq(userStatus.userId, me.id))).toEqual([]);
    expect(await db().select().from(chatAccounts).where(eq(chatAccounts.userId, me.id))).toEqual([]);

    // The match stays, with the placeholder name and the numbers; the others keep theirs.
    expect(await db().select().from(matches).where(eq(matches.id, matchId))).toHaveLength(1);
    const lineup = await db().select().from(matchPlayers).where(eq(matchPlayers.matchId, matchId));
    expect(lineup).toHaveLength(3);
    const mine = lineup.find((p) => p.userId === me.id)!;
    expect(mine).toMatchObject({
      name: DELETED_PLAYER_NAME,
      avatar: null,
      steamId: null,
      kills: 21,
      eloBefore: 200,
      eloAfter: 216,
    });
    expect(lineup.find((p) => p.userId === friend.id)).toMatchObject({ name: friend.name });

    // Sessions: the old token is a 401, the password no longer logs in.
    const profile = await t.app.inject({ method: 'GET', url: '/api/profile', headers: bearer(me) });
    expect(profile.statusCode).toBe(401);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: me.email, password: PASSWORD },
    });
    expect(login.statusCode).toBeGreaterThanOrEqual(400);
    expect(login.json().errors.msg).toBe('WRONG_CREDENTIALS');

    // The name is free again; friends and the leaderboard no longer show the player.
    const rename = await t.app.inject({
      method: 'PATCH',
      url: '/api/profile',
      headers: bearer(friend),
      payload: { name: me.name },
    });
    expect(rename.statusCode).toBe(200);
    const friends = await t.app.inject({ method: 'GET', url: '/api/friends', headers: bearer(friend) });
    expect(friends.body).not.toContain(me.id);
    const ranking = await t.app.inject({
      method: 'GET',
      url: '/api/users/ranking?limit=100',
      headers: bearer(friend),
    });
    expect(ranking.statusCode).toBe(200);
    expect(ranking.body).not.toContain(me.id);

    // Chat: the message is redacted for everyone, the Matrix account can no longer be used.
    const event = await mx(
      hs,
      'GET',
      `/_matrix/client/v3/rooms/${enc(chat.roomId)}/event/${enc(chat.eventId)}`,
      friendChat.accessToken,
    );
    expect(event.status).toBe(200);
    expect(event.json.content).toEqual({});
    expect(event.json.unsigned?.redacted_because).toBeTruthy();
    expect((await mx(hs, 'GET', '/_matrix/client/v3/account/whoami', chat.session.accessToken)).status).toBe(
      401,
    );
    const members = await mx(
      hs,
      'GET',
      `/_matrix/client/v3/rooms/${enc(chat.roomId)}/joined_members`,
      friendChat.accessToken,
    );
    expect(Object.keys(members.json.joined ?? {})).not.toContain(chat.session.userId);

    // The confirmation went to the old address; older mail for the account is gone.
    const mails = await db().select().from(outbox).where(eq(outbox.to, me.email));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      channel: 'email',
      subject: 'Your openpug account has been deleted',
      userId: null,
    });
    expect(mails[0].text).toContain(DELETED_PLAYER_NAME);
  });

  it('confirms a Steam-only account with a fresh Steam sign-in of the linked account', async () => {
    const steamId = `7656119${String(Math.floor(Math.random() * 1e10)).padStart(10, '0')}`;
    const me = await createTestUser(t.app, { email: null, steamId });
    const status = await t.app.inject({ method: 'GET', url: '/api/privacy', headers: bearer(me) });
    expect(status.json()).toEqual({ confirmWith: 'steam' });
    const ticket = (id: string) => signSteamTicket(t.app.ctx.tokens.secret, id, t.app.ctx.clock.now());
    const del = async (payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/privacy/delete', headers: bearer(me), payload });
    expect((await del({ password: 'anything' })).json()).toEqual({ errors: { msg: 'MISSING' } });
    expect((await del({ steamTicket: 'forged' })).json()).toEqual({ errors: { msg: 'BAD_TOKEN' } });
    expect((await del({ steamTicket: await ticket('76561190000000002') })).json()).toEqual({
      errors: { msg: 'STEAM_ACCOUNT_MISMATCH' },
    });
    expect(await db().select().from(users).where(eq(users.id, me.id))).toHaveLength(1);
    const ok = await del({ steamTicket: await ticket(steamId) });
    expect(ok.statusCode).toBe(200);
    expect(await db().select().from(users).where(eq(users.id, me.id))).toEqual([]);
  });
});
