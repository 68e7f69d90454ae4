// biome-ignore-all lint/suspicious/noExplicitAny: Matrix JSON answers are inspected loosely in black-box tests.
/**
 * Black-box Matrix Client-Server conformance for the subset the product uses, organised by the
 * spec's sections. Runs against the embedded homeserver always and against Synapse when
 * SYNAPSE_URL + SYNAPSE_SHARED_SECRET are set: both must answer the same way.
 */
import { directRoomAliasLocalpart } from '@openpug/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  enc,
  type MatrixUser,
  registerProductUser,
  registerUser,
  serverOf,
  type Target,
  targets,
  testPng,
} from './targets';

const MiB = 1024 * 1024;

describe.each(targets())('Matrix C-S API on $name', (spec) => {
  let t: Target;
  let alice: MatrixUser;
  let bob: MatrixUser;
  let eve: MatrixUser;
  beforeAll(async () => {
    t = await spec.start();
    [alice, bob, eve] = await Promise.all([
      registerUser(t, 'alice'),
      registerUser(t, 'bob'),
      registerUser(t, 'eve'),
    ]);
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = (path: string, token?: string) => call(t, 'GET', path, { token });
  const post = (path: string, body: unknown, token?: string) => call(t, 'POST', path, { body, token });
  const put = (path: string, body: unknown, token?: string) => call(t, 'PUT', path, { body, token });
  const room = (id: string) => `/_matrix/client/v3/rooms/${enc(id)}`;
  let txn = 0;
  const send = (token: string, roomId: string, content: object, type = 'm.room.message', id = `t${++txn}`) =>
    put(`${room(roomId)}/send/${type}/${id}`, content, token);
  const createRoom = async (token: string, body: object = {}) => {
    const r = await post('/_matrix/client/v3/createRoom', body, token);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    return r.json.room_id as string;
  };
  const messages = async (token: string, roomId: string, query = 'dir=b&limit=100') => {
    const r = await get(`${room(roomId)}/messages?${query}`, token);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    return r.json;
  };
  const texts = async (token: string, roomId: string) =>
    ((await messages(token, roomId)).chunk as any[])
      .filter((e) => e.type === 'm.room.message')
      .map((e) => e.content.body);
  const sync = async (token: string, query = '') => {
    const r = await get(`/_matrix/client/v3/sync?${query}`, token);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    return r.json;
  };

  /** Incremental syncs from `since` until `found` picks something out of a response (like a client's sync loop). */
  const syncUntil = async <T>(
    token: string,
    since: string,
    found: (s: any) => T | undefined,
    query = 'timeout=5000',
  ) => {
    let next = since;
    for (let i = 0; i < 20; i++) {
      const s = await sync(token, `since=${enc(next)}&${query}`);
      const hit = found(s);
      if (hit !== undefined) return { hit, next_batch: s.next_batch as string };
      next = s.next_batch;
    }
    throw new Error('not delivered by sync');
  };

  describe('2 API standards: errors', () => {
    it('unknown endpoints are 404 M_UNRECOGNIZED, wrong methods 405 M_UNRECOGNIZED', async () => {
      const unknown = await get('/_matrix/client/v3/no_such_thing', alice.accessToken);
      expect(unknown.status).toBe(404);
      expect(unknown.json.errcode).toBe('M_UNRECOGNIZED');
      const wrong = await call(t, 'DELETE', '/_matrix/client/v3/createRoom', { token: alice.accessToken });
      expect(wrong.status).toBe(405);
      expect(wrong.json.errcode).toBe('M_UNRECOGNIZED');
    });
    it('malformed JSON is 400 M_NOT_JSON, a JSON array 400 M_BAD_JSON, and nothing is created', async () => {
      const before = (await get('/_matrix/client/v3/joined_rooms', alice.accessToken)).json.joined_rooms
        .length;
      const bad = await call(t, 'POST', '/_matrix/client/v3/createRoom', {
        raw: '{"name": ',
        token: alice.accessToken,
      });
      expect(bad.status).toBe(400);
      expect(bad.json.errcode).toBe('M_NOT_JSON');
      const array = await call(t, 'POST', '/_matrix/client/v3/createRoom', {
        raw: '[]',
        token: alice.accessToken,
      });
      expect(array.status).toBe(400);
      expect(array.json.errcode).toBe('M_BAD_JSON');
      expect((await get('/_matrix/client/v3/joined_rooms', alice.accessToken)).json.joined_rooms.length).toBe(
        before,
      );
    });
  });

  describe('3 server discovery and versions', () => {
    it('lists supported versions', async () => {
      const r = await get('/_matrix/client/versions');
      expect(r.status).toBe(200);
      expect(r.json.versions).toEqual(expect.arrayContaining(['v1.1']));
    });
    it('reports capabilities with room versions', async () => {
      const r = await get('/_matrix/client/v3/capabilities', alice.accessToken);
      expect(r.status).toBe(200);
      expect(r.json.capabilities['m.room_versions'].default).toEqual(expect.any(String));
    });
  });

  describe('5 client authentication', () => {
    it('offers password and token login', async () => {
      const flows = (await get('/_matrix/client/v3/login')).json.flows.map((f: { type: string }) => f.type);
      expect(flows).toEqual(expect.arrayContaining(['m.login.password', 'm.login.token']));
    });
    it('logs in with a password, whoami names the user, logout revokes the token', async () => {
      const login = await post('/_matrix/client/v3/login', {
        type: 'm.login.password',
        identifier: { type: 'm.id.user', user: alice.userId },
        password: alice.password,
      });
      expect(login.status).toBe(200);
      expect(login.json.user_id).toBe(alice.userId);
      const token = login.json.access_token as string;
      const who = await get('/_matrix/client/v3/account/whoami', token);
      expect(who.json).toMatchObject({ user_id: alice.userId, device_id: login.json.device_id });
      expect((await post('/_matrix/client/v3/logout', {}, token)).status).toBe(200);
      const after = await get('/_matrix/client/v3/account/whoami', token);
      expect(after.status).toBe(401);
      expect(after.json.errcode).toBe('M_UNKNOWN_TOKEN');
      // Other sessions keep working.
      expect((await get('/_matrix/client/v3/account/whoami', alice.accessToken)).status).toBe(200);
    });
    it('refuses a wrong password with 403 M_FORBIDDEN', async () => {
      const r = await post('/_matrix/client/v3/login', {
        type: 'm.login.password',
        identifier: { type: 'm.id.user', user: alice.userId },
        password: 'wrong',
      });
      expect(r.status).toBe(403);
      expect(r.json.errcode).toBe('M_FORBIDDEN');
    });
    it('refuses wrong and missing tokens', async () => {
      const wrong = await get('/_matrix/client/v3/account/whoami', 'not-a-token');
      expect(wrong.status).toBe(401);
      expect(wrong.json.errcode).toBe('M_UNKNOWN_TOKEN');
      const missing = await get('/_matrix/client/v3/account/whoami');
      expect(missing.status).toBe(401);
      expect(missing.json.errcode).toBe('M_MISSING_TOKEN');
    });
    it('logs in with a single-use m.login.token', async () => {
      const minted = await post('/_matrix/client/v1/login/get_token', {}, bob.accessToken);
      expect(minted.status, JSON.stringify(minted.json)).toBe(200);
      const body = { type: 'm.login.token', token: minted.json.login_token };
      const login = await post('/_matrix/client/v3/login', body);
      expect(login.status).toBe(200);
      expect(login.json.user_id).toBe(bob.userId);
      const again = await post('/_matrix/client/v3/login', body);
      expect(again.status).toBe(403);
      expect(again.json.errcode).toBe('M_FORBIDDEN');
    });
    it('open registration is disabled: accounts come from the shared-secret admin API', async () => {
      const r = await post('/_matrix/client/v3/register', {
        username: 'x',
        password: 'y',
        auth: { type: 'm.login.dummy' },
      });
      expect(r.status).toBe(403);
      expect(r.json.errcode).toBe('M_FORBIDDEN');
    });
    it('shared-secret registration checks the HMAC and uses each nonce once', async () => {
      const { json: n } = await get('/_synapse/admin/v1/register');
      const body = {
        nonce: n.nonce,
        username: 'mallory',
        password: 'pw',
        admin: false,
        mac: '00'.repeat(20),
      };
      const bad = await post('/_synapse/admin/v1/register', body);
      expect(bad.status).toBe(403);
      const login = await post('/_matrix/client/v3/login', {
        type: 'm.login.password',
        identifier: { type: 'm.id.user', user: 'mallory' },
        password: 'pw',
      });
      expect(login.status).toBe(403);
    });
  });

  describe('8 filtering', () => {
    it('creates and reads a filter; an unknown id is 404 M_NOT_FOUND', async () => {
      const filter = { room: { timeline: { limit: 5 } } };
      const created = await post(
        `/_matrix/client/v3/user/${enc(alice.userId)}/filter`,
        filter,
        alice.accessToken,
      );
      expect(created.status).toBe(200);
      const read = await get(
        `/_matrix/client/v3/user/${enc(alice.userId)}/filter/${created.json.filter_id}`,
        alice.accessToken,
      );
      expect(read.json).toMatchObject(filter);
      const missing = await get(
        `/_matrix/client/v3/user/${enc(alice.userId)}/filter/987654`,
        alice.accessToken,
      );
      expect(missing.status).toBe(404);
      expect(missing.json.errcode).toBe('M_NOT_FOUND');
    });
  });

  describe('7 rooms: creation, aliases, membership', () => {
    it('creates a room with an alias; the alias resolves; a taken alias is M_ROOM_IN_USE', async () => {
      const name = `r${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
      const roomId = await createRoom(alice.accessToken, {
        preset: 'public_chat',
        room_alias_name: name,
        name: 'Lobby',
      });
      const alias = `#${name}:${serverOf(alice.userId)}`;
      const resolved = await get(`/_matrix/client/v3/directory/room/${enc(alias)}`, bob.accessToken);
      expect(resolved.json.room_id).toBe(roomId);
      const taken = await post('/_matrix/client/v3/createRoom', { room_alias_name: name }, bob.accessToken);
      expect(taken.status).toBe(400);
      expect(taken.json.errcode).toBe('M_ROOM_IN_USE');
      // join by alias, twice: same room, one membership
      expect((await post(`/_matrix/client/v3/join/${enc(alias)}`, {}, bob.accessToken)).json.room_id).toBe(
        roomId,
      );
      expect((await post(`/_matrix/client/v3/join/${enc(alias)}`, {}, bob.accessToken)).json.room_id).toBe(
        roomId,
      );
      const joined = await get(`${room(roomId)}/joined_members`, alice.accessToken);
      expect(Object.keys(joined.json.joined).sort()).toEqual([alice.userId, bob.userId].sort());
      expect((await get(`${room(roomId)}/state/m.room.name/`, bob.accessToken)).json.name).toBe('Lobby');
      const unknown = await get(
        `/_matrix/client/v3/directory/room/${enc(`#nope${name}:${serverOf(alice.userId)}`)}`,
      );
      expect(unknown.status).toBe(404);
      expect(unknown.json.errcode).toBe('M_NOT_FOUND');
    });

    it('private rooms: no join without an invite; invite, join, leave', async () => {
      const roomId = await createRoom(alice.accessToken, { preset: 'private_chat' });
      const denied = await post(`/_matrix/client/v3/join/${enc(roomId)}`, {}, eve.accessToken);
      expect(denied.status).toBe(403);
      expect(denied.json.errcode).toBe('M_FORBIDDEN');
      expect((await post(`${room(roomId)}/invite`, { user_id: bob.userId }, alice.accessToken)).status).toBe(
        200,
      );
      expect((await post(`${room(roomId)}/join`, {}, bob.accessToken)).status).toBe(200);
      expect((await post(`${room(roomId)}/leave`, {}, bob.accessToken)).status).toBe(200);
      const joined = await get(`${room(roomId)}/joined_members`, alice.accessToken);
      expect(Object.keys(joined.json.joined)).toEqual([alice.userId]);
    });

    it('createRoom invites with is_direct reach the invitee as an invite', async () => {
      const { next_batch } = await sync(bob.accessToken, 'timeout=0');
      const roomId = await createRoom(alice.accessToken, {
        preset: 'trusted_private_chat',
        is_direct: true,
        invite: [bob.userId],
      });
      const { hit: events } = await syncUntil(
        bob.accessToken,
        next_batch,
        (s) => s.rooms.invite[roomId]?.invite_state.events,
      );
      const me = events.find((e: any) => e.type === 'm.room.member' && e.state_key === bob.userId);
      expect(me.content).toMatchObject({ membership: 'invite', is_direct: true });
    });

    it("only the two players may claim their direct-chat alias (openpug's rule, docs/contract.md §3)", async () => {
      const [a, b, c] = await Promise.all([
        registerProductUser(t),
        registerProductUser(t),
        registerProductUser(t),
      ]);
      const idOf = (u: MatrixUser) => u.userId.slice(1, u.userId.indexOf(':'));
      const localpart = directRoomAliasLocalpart(idOf(a), idOf(b));
      const alias = `#${localpart}:${serverOf(a.userId)}`;
      const reversedLocalpart = localpart.split('_').reverse().join('_');
      const joinedRooms = async (u: MatrixUser) =>
        (await get('/_matrix/client/v3/joined_rooms', u.accessToken)).json.joined_rooms as string[];
      const forbidden = (r: { status: number; json: any }) => {
        expect(r.status, JSON.stringify(r.json)).toBe(403);
        expect(r.json.errcode).toBe('M_FORBIDDEN');
      };

      // A third user can claim it neither with createRoom (no room is made) nor in the directory,
      // whatever the order or letter case of the ids.
      forbidden(
        await post(
          '/_matrix/client/v3/createRoom',
          { preset: 'public_chat', room_alias_name: localpart },
          c.accessToken,
        ),
      );
      forbidden(
        await post(
          '/_matrix/client/v3/createRoom',
          { room_alias_name: reversedLocalpart.toUpperCase() },
          c.accessToken,
        ),
      );
      expect(await joinedRooms(c)).toEqual([]);
      const squat = await createRoom(c.accessToken, { preset: 'public_chat' });
      forbidden(
        await put(`/_matrix/client/v3/directory/room/${enc(alias)}`, { room_id: squat }, c.accessToken),
      );
      expect((await get(`/_matrix/client/v3/directory/room/${enc(alias)}`, a.accessToken)).status).toBe(404);

      // One of the two players can, with createRoom or in the directory.
      const dm = await createRoom(a.accessToken, {
        preset: 'private_chat',
        room_alias_name: localpart,
        is_direct: true,
        invite: [b.userId],
      });
      expect((await get(`/_matrix/client/v3/directory/room/${enc(alias)}`, c.accessToken)).json.room_id).toBe(
        dm,
      );
      expect((await post(`/_matrix/client/v3/join/${enc(alias)}`, {}, b.accessToken)).json.room_id).toBe(dm);
      const reversed = `#${reversedLocalpart}:${serverOf(a.userId)}`;
      expect(
        (await put(`/_matrix/client/v3/directory/room/${enc(reversed)}`, { room_id: dm }, b.accessToken))
          .status,
      ).toBe(200);
      // A taken alias is in use before it is forbidden (Synapse checks in that order).
      const taken = await post(
        '/_matrix/client/v3/createRoom',
        { room_alias_name: localpart },
        c.accessToken,
      );
      expect(taken.status).toBe(400);
      expect(taken.json.errcode).toBe('M_ROOM_IN_USE');
      expect(await joinedRooms(c)).toEqual([squat]);
    });
  });

  describe('7 rooms: events, state, power levels, history', () => {
    let roomId: string;
    beforeAll(async () => {
      roomId = await createRoom(alice.accessToken, { preset: 'private_chat', invite: [bob.userId] });
      await post(`${room(roomId)}/join`, {}, bob.accessToken);
    });

    it('sending is idempotent per transaction id', async () => {
      const a = await send(
        alice.accessToken,
        roomId,
        { msgtype: 'm.text', body: 'once' },
        'm.room.message',
        'same-txn',
      );
      const b = await send(
        alice.accessToken,
        roomId,
        { msgtype: 'm.text', body: 'once' },
        'm.room.message',
        'same-txn',
      );
      expect(a.status).toBe(200);
      expect(b.json.event_id).toBe(a.json.event_id);
      expect((await texts(alice.accessToken, roomId)).filter((x) => x === 'once')).toHaveLength(1);
      const ev = await get(`${room(roomId)}/event/${enc(a.json.event_id)}`, bob.accessToken);
      expect(ev.json).toMatchObject({
        type: 'm.room.message',
        sender: alice.userId,
        content: { body: 'once' },
      });
    });

    it('non-members can neither read nor write, and nothing changes', async () => {
      const before = await texts(alice.accessToken, roomId);
      const write = await send(eve.accessToken, roomId, { msgtype: 'm.text', body: 'intruder' });
      expect(write.status).toBe(403);
      expect(write.json.errcode).toBe('M_FORBIDDEN');
      const read = await get(`${room(roomId)}/messages?dir=b`, eve.accessToken);
      expect(read.status).toBe(403);
      expect(read.json.errcode).toBe('M_FORBIDDEN');
      const state = await put(`${room(roomId)}/state/m.room.topic/`, { topic: 'x' }, eve.accessToken);
      expect(state.status).toBe(403);
      const typing = await put(
        `${room(roomId)}/typing/${enc(eve.userId)}`,
        { typing: true, timeout: 1000 },
        eve.accessToken,
      );
      expect(typing.status).toBe(403);
      expect(await texts(alice.accessToken, roomId)).toEqual(before);
    });

    it('state events: set and read; power levels stop a regular member', async () => {
      expect(
        (await put(`${room(roomId)}/state/m.room.name/`, { name: 'Ours' }, alice.accessToken)).status,
      ).toBe(200);
      expect((await get(`${room(roomId)}/state/m.room.name/`, bob.accessToken)).json).toEqual({
        name: 'Ours',
      });
      const denied = await put(`${room(roomId)}/state/m.room.name/`, { name: 'Mine' }, bob.accessToken);
      expect(denied.status).toBe(403);
      expect(denied.json.errcode).toBe('M_FORBIDDEN');
      expect((await get(`${room(roomId)}/state/m.room.name/`, bob.accessToken)).json).toEqual({
        name: 'Ours',
      });
      const missing = await get(`${room(roomId)}/state/m.room.topic/`, bob.accessToken);
      expect(missing.status).toBe(404);
      expect(missing.json.errcode).toBe('M_NOT_FOUND');
    });

    it('/messages paginates backwards and forwards', async () => {
      for (let i = 0; i < 5; i++)
        await send(bob.accessToken, roomId, { msgtype: 'm.text', body: `page ${i}` });
      const first = await messages(alice.accessToken, roomId, 'dir=b&limit=3');
      expect(first.chunk.map((e: any) => e.content.body)).toEqual(['page 4', 'page 3', 'page 2']);
      const second = await messages(alice.accessToken, roomId, `dir=b&limit=2&from=${first.end}`);
      expect(second.chunk.map((e: any) => e.content.body)).toEqual(['page 1', 'page 0']);
      const forward = await messages(alice.accessToken, roomId, `dir=f&limit=2&from=${second.end}`);
      expect(forward.chunk.map((e: any) => e.content.body)).toEqual(['page 0', 'page 1']);
      // all the way back to the creation event
      let from = first.end;
      let all: any[] = [...first.chunk];
      for (let i = 0; i < 20 && from; i++) {
        const page = await messages(alice.accessToken, roomId, `dir=b&limit=10&from=${from}`);
        all = all.concat(page.chunk);
        from = page.end;
      }
      expect(all.at(-1).type).toBe('m.room.create');
    });

    describe('redactions', () => {
      const redact = (token: string, eventId: string, body: object = {}, id = `red${++txn}`) =>
        put(`${room(roomId)}/redact/${enc(eventId)}/${id}`, body, token);
      const eventOf = async (token: string, eventId: string) => {
        const r = await get(`${room(roomId)}/event/${enc(eventId)}`, token);
        expect(r.status, JSON.stringify(r.json)).toBe(200);
        return r.json;
      };

      it('the sender redacts their own message: idempotent per transaction id, content gone wherever it is read', async () => {
        const since = (await sync(bob.accessToken, 'timeout=0')).next_batch;
        const sent = await send(alice.accessToken, roomId, {
          msgtype: 'm.text',
          body: 'regret this',
          format: 'org.matrix.custom.html',
          formatted_body: '<b>regret</b> this',
        });
        const target = sent.json.event_id as string;
        const first = await redact(alice.accessToken, target, { reason: 'typo' }, 'redact-once');
        expect(first.status, JSON.stringify(first.json)).toBe(200);
        const again = await redact(alice.accessToken, target, { reason: 'typo' }, 'redact-once');
        expect(again.json.event_id).toBe(first.json.event_id);
        const redactionId = first.json.event_id as string;

        const ev = await eventOf(bob.accessToken, target);
        expect(ev).toMatchObject({ type: 'm.room.message', sender: alice.userId, content: {} });
        expect(ev.content).toEqual({});
        expect(ev.unsigned.redacted_because).toMatchObject({
          event_id: redactionId,
          type: 'm.room.redaction',
          sender: alice.userId,
          redacts: target,
        });

        const chunk = (await messages(bob.accessToken, roomId, 'dir=b&limit=5')).chunk as any[];
        const redactions = chunk.filter((e) => e.type === 'm.room.redaction');
        expect(redactions).toHaveLength(1);
        expect(redactions[0]).toMatchObject({
          event_id: redactionId,
          sender: alice.userId,
          redacts: target,
          content: { reason: 'typo' },
        });
        const original = chunk.find((e) => e.event_id === target);
        expect(original.content).toEqual({});
        expect(original.unsigned.redacted_because.event_id).toBe(redactionId);

        const { hit } = await syncUntil(bob.accessToken, since, (s) => {
          const events = s.rooms.join[roomId]?.timeline.events as any[] | undefined;
          return events?.some((e) => e.event_id === redactionId) ? events : undefined;
        });
        const synced = hit.find((e: any) => e.event_id === target);
        expect(synced.content).toEqual({});
        expect(synced.unsigned.redacted_because.event_id).toBe(redactionId);
        expect(await texts(alice.accessToken, roomId)).not.toContain('regret this');
      });

      it("others' events need the redact power level; non-members may not redact at all", async () => {
        const mine = (await send(alice.accessToken, roomId, { msgtype: 'm.text', body: 'mine to keep' })).json
          .event_id as string;
        const denied = await redact(bob.accessToken, mine);
        expect(denied.status).toBe(403);
        expect(denied.json.errcode).toBe('M_FORBIDDEN');
        const outsider = await redact(eve.accessToken, mine);
        expect(outsider.status).toBe(403);
        expect(outsider.json.errcode).toBe('M_FORBIDDEN');
        expect((await eventOf(bob.accessToken, mine)).content.body).toBe('mine to keep');
        // Without the power level an unknown event cannot be redacted either.
        const unknown = await redact(bob.accessToken, `$nope${Date.now()}`);
        expect(unknown.status).toBe(404);
        expect(unknown.json.errcode).toBe('M_NOT_FOUND');

        // The room creator has power 100 (redact: 50) and redacts the other member's message.
        const his = (await send(bob.accessToken, roomId, { msgtype: 'm.text', body: 'moderate me' })).json
          .event_id as string;
        expect((await redact(alice.accessToken, his)).status).toBe(200);
        expect((await eventOf(alice.accessToken, his)).content).toEqual({});
      });

      it('a malformed redact level lets nobody through: refused at creation or read as absent', async () => {
        const created = await post(
          '/_matrix/client/v3/createRoom',
          { preset: 'private_chat', invite: [bob.userId], power_level_content_override: { redact: 'x' } },
          alice.accessToken,
        );
        if (created.status !== 200) {
          // Synapse refuses a non-integer power level outright.
          expect(created.status).toBe(400);
          return;
        }
        const other = created.json.room_id as string;
        expect((await post(`${room(other)}/join`, {}, bob.accessToken)).status).toBe(200);
        const kept = (await send(alice.accessToken, other, { msgtype: 'm.text', body: 'keep me' })).json
          .event_id as string;
        const denied = await put(
          `${room(other)}/redact/${enc(kept)}/bad-level-${++txn}`,
          {},
          bob.accessToken,
        );
        expect(denied.status).toBe(403);
        expect(denied.json.errcode).toBe('M_FORBIDDEN');
      });

      it('a redacted message no longer counts as unread', async () => {
        const unread = async () =>
          (await sync(bob.accessToken, 'timeout=0')).rooms.join[roomId].unread_notifications
            .notification_count;
        const sent = await send(alice.accessToken, roomId, { msgtype: 'm.text', body: 'count me out' });
        const before = await unread();
        expect((await redact(alice.accessToken, sent.json.event_id)).status).toBe(200);
        expect(await unread()).toBe(before - 1);
      });

      it('a redacted state event keeps only what the redaction algorithm keeps', async () => {
        const topic = await put(
          `${room(roomId)}/state/m.room.topic/`,
          { topic: 'secret plans' },
          alice.accessToken,
        );
        expect((await redact(alice.accessToken, topic.json.event_id)).status).toBe(200);
        const state = await get(`${room(roomId)}/state/m.room.topic/`, bob.accessToken);
        expect(state.status).toBe(200);
        expect(state.json).toEqual({});
        // m.room.member keeps its membership.
        const members = await get(`${room(roomId)}/members`, alice.accessToken);
        const bobJoin = (members.json.chunk as any[]).find((e) => e.state_key === bob.userId);
        expect((await redact(alice.accessToken, bobJoin.event_id)).status).toBe(200);
        expect((await eventOf(alice.accessToken, bobJoin.event_id)).content).toEqual({ membership: 'join' });
        const creation = (await messages(alice.accessToken, roomId, 'dir=f&limit=1')).chunk[0];
        expect(creation.type).toBe('m.room.create');
        const refused = await redact(alice.accessToken, creation.event_id);
        expect(refused.status).toBe(403);
        expect(refused.json.errcode).toBe('M_FORBIDDEN');
      });
    });
  });

  /**
   * Moderation: spec v1.11 §10.2.x "Room membership" (kick, ban, unban) and "Reporting content"
   * (POST /rooms/{roomId}/report/{eventId}); error codes as Synapse answers them
   * (synapse/handlers/room_member.py update_membership_locked, synapse/event_auth.py
   * _is_membership_change_allowed, synapse/rest/client/reporting.py).
   */
  describe('10 room moderation: kick, ban, unban, report', () => {
    let roomId: string;
    let mod: MatrixUser;
    let outsider: MatrixUser;
    const member = async (userId: string) =>
      (await get(`${room(roomId)}/state/m.room.member/${enc(userId)}`, alice.accessToken)).json;
    const expectError = (r: { status: number; json: any }, status: number, errcode: string) => {
      expect(r.status, JSON.stringify(r.json)).toBe(status);
      expect(r.json.errcode).toBe(errcode);
    };
    beforeAll(async () => {
      [mod, outsider] = await Promise.all([registerUser(t, 'mod'), registerUser(t, 'out')]);
      roomId = await createRoom(alice.accessToken, { preset: 'public_chat' });
      for (const u of [bob, eve, mod]) await post(`${room(roomId)}/join`, {}, u.accessToken);
      const pl = (await get(`${room(roomId)}/state/m.room.power_levels/`, alice.accessToken)).json;
      const set = await put(
        `${room(roomId)}/state/m.room.power_levels/`,
        { ...pl, users: { ...pl.users, [mod.userId]: 50 } },
        alice.accessToken,
      );
      expect(set.status).toBe(200);
    });

    it('kick needs the kick level and a level above the target; the target leaves with the reason and may come back', async () => {
      expectError(
        await post(`${room(roomId)}/kick`, { user_id: eve.userId }, bob.accessToken),
        403,
        'M_FORBIDDEN',
      );
      expectError(
        await post(`${room(roomId)}/kick`, { user_id: alice.userId }, mod.accessToken),
        403,
        'M_FORBIDDEN',
      );
      expectError(
        await post(`${room(roomId)}/kick`, { user_id: eve.userId }, outsider.accessToken),
        403,
        'M_FORBIDDEN',
      );
      expect((await member(eve.userId)).membership).toBe('join');

      const kick = await post(
        `${room(roomId)}/kick`,
        { user_id: eve.userId, reason: 'calm down' },
        mod.accessToken,
      );
      expect(kick.status).toBe(200);
      expect(kick.json).toEqual({});
      expect(await member(eve.userId)).toEqual({ membership: 'leave', reason: 'calm down' });
      expectError(await send(eve.accessToken, roomId, { msgtype: 'm.text', body: 'x' }), 403, 'M_FORBIDDEN');
      // Nobody left to kick: not in the room any more, or never was.
      expectError(
        await post(`${room(roomId)}/kick`, { user_id: eve.userId }, mod.accessToken),
        403,
        'M_FORBIDDEN',
      );
      expectError(
        await post(`${room(roomId)}/kick`, { user_id: outsider.userId }, mod.accessToken),
        403,
        'M_FORBIDDEN',
      );
      expect((await post(`${room(roomId)}/join`, {}, eve.accessToken)).status).toBe(200);
    });

    it('kick, ban and unban refuse bad input and unknown rooms', async () => {
      expectError(await post(`${room(roomId)}/kick`, {}, alice.accessToken), 400, 'M_MISSING_PARAM');
      expectError(
        await post(`${room(roomId)}/ban`, { user_id: 'bob' }, alice.accessToken),
        400,
        'M_INVALID_PARAM',
      );
      expectError(
        await post(`${room(roomId)}/unban`, { user_id: '@bob' }, alice.accessToken),
        400,
        'M_INVALID_PARAM',
      );
      const unknown = `!nosuchroom:${serverOf(alice.userId)}`;
      expect((await post(`${room(unknown)}/kick`, { user_id: bob.userId }, alice.accessToken)).status).toBe(
        404,
      );
      expect((await post(`${room(unknown)}/unban`, { user_id: bob.userId }, alice.accessToken)).status).toBe(
        404,
      );
      expectError(
        await post(`${room(unknown)}/ban`, { user_id: bob.userId }, alice.accessToken),
        403,
        'M_FORBIDDEN',
      );
      expect((await member(bob.userId)).membership).toBe('join');
    });

    it('a banned user can neither join nor be invited nor kicked until unbanned; unban leaves them out', async () => {
      expectError(
        await post(`${room(roomId)}/ban`, { user_id: eve.userId }, bob.accessToken),
        403,
        'M_FORBIDDEN',
      );
      expectError(
        await post(`${room(roomId)}/ban`, { user_id: mod.userId }, mod.accessToken),
        403,
        'M_FORBIDDEN',
      );
      const ban = await post(`${room(roomId)}/ban`, { user_id: eve.userId, reason: 'spam' }, mod.accessToken);
      expect(ban.status).toBe(200);
      expect(ban.json).toEqual({});
      expect(await member(eve.userId)).toEqual({ membership: 'ban', reason: 'spam' });
      expect(
        (await post(`${room(roomId)}/ban`, { user_id: eve.userId, reason: 'spam' }, mod.accessToken)).status,
      ).toBe(200);

      expectError(await post(`${room(roomId)}/join`, {}, eve.accessToken), 403, 'M_BAD_STATE');
      expectError(
        await post(`/_matrix/client/v3/join/${enc(roomId)}`, {}, eve.accessToken),
        403,
        'M_BAD_STATE',
      );
      expectError(
        await post(`${room(roomId)}/invite`, { user_id: eve.userId }, alice.accessToken),
        403,
        'M_BAD_STATE',
      );
      expectError(
        await post(`${room(roomId)}/kick`, { user_id: eve.userId }, alice.accessToken),
        403,
        'M_BAD_STATE',
      );
      expectError(await send(eve.accessToken, roomId, { msgtype: 'm.text', body: 'x' }), 403, 'M_FORBIDDEN');

      // Unban: the ban level (not a level above the target); only a banned user.
      expectError(
        await post(`${room(roomId)}/unban`, { user_id: eve.userId }, bob.accessToken),
        403,
        'M_FORBIDDEN',
      );
      expectError(
        await post(`${room(roomId)}/unban`, { user_id: bob.userId }, mod.accessToken),
        403,
        'M_BAD_STATE',
      );
      const unban = await post(
        `${room(roomId)}/unban`,
        { user_id: eve.userId, reason: 'served' },
        mod.accessToken,
      );
      expect(unban.status).toBe(200);
      expect(unban.json).toEqual({});
      expect(await member(eve.userId)).toEqual({ membership: 'leave', reason: 'served' });
      expectError(
        await post(`${room(roomId)}/unban`, { user_id: eve.userId }, mod.accessToken),
        403,
        'M_BAD_STATE',
      );
      expect((await post(`${room(roomId)}/join`, {}, eve.accessToken)).status).toBe(200);
    });

    it('a user who never was in the room can be banned beforehand and then cannot join', async () => {
      expect(
        (await post(`${room(roomId)}/ban`, { user_id: outsider.userId }, alice.accessToken)).status,
      ).toBe(200);
      expect(await member(outsider.userId)).toEqual({ membership: 'ban' });
      expectError(await post(`${room(roomId)}/join`, {}, outsider.accessToken), 403, 'M_BAD_STATE');
    });

    it('the banned user sees the ban in sync, with its reason, and reads the room no more', async () => {
      const since = (await sync(eve.accessToken, 'timeout=0')).next_batch;
      const ban = await post(
        `${room(roomId)}/ban`,
        { user_id: eve.userId, reason: 'again' },
        alice.accessToken,
      );
      expect(ban.status).toBe(200);
      const { hit } = await syncUntil(eve.accessToken, since, (s) => s.rooms?.leave?.[roomId]);
      const banEvent = hit.timeline.events.find(
        (e: any) => e.type === 'm.room.member' && e.state_key === eve.userId,
      );
      expect(banEvent).toMatchObject({
        sender: alice.userId,
        content: { membership: 'ban', reason: 'again' },
      });
      // Only a user who left reads the history up to their leave; a banned one is refused.
      expectError(await get(`${room(roomId)}/messages?dir=b`, eve.accessToken), 403, 'M_FORBIDDEN');
      expect((await post(`${room(roomId)}/unban`, { user_id: eve.userId }, alice.accessToken)).status).toBe(
        200,
      );
      expect((await post(`${room(roomId)}/join`, {}, eve.accessToken)).status).toBe(200);
    });

    it('reports: {} for an event the reporter can read; bad reason or score 400 M_BAD_JSON; unknown or unreadable 404', async () => {
      const ev = (await send(eve.accessToken, roomId, { msgtype: 'm.text', body: 'rude' })).json
        .event_id as string;
      const report = (eventId: string, body: unknown, token = bob.accessToken, inRoom = roomId) =>
        post(`${room(inRoom)}/report/${enc(eventId)}`, body, token);
      const ok = await report(ev, { reason: 'rude', score: -100 });
      expect(ok.status).toBe(200);
      expect(ok.json).toEqual({});
      expect((await report(ev, {})).status).toBe(200);
      expectError(await report(ev, { reason: 5 }), 400, 'M_BAD_JSON');
      expectError(await report(ev, { score: 'bad' }), 400, 'M_BAD_JSON');
      expectError(await report(ev, { score: -1.5 }), 400, 'M_BAD_JSON');
      const unseen = "Unable to report event: it does not exist or you aren't able to see it.";
      for (const r of [
        await report('$nosuchevent', {}),
        await report(ev, {}, outsider.accessToken),
        await report(ev, {}, bob.accessToken, await createRoom(bob.accessToken)),
      ]) {
        expectError(r, 404, 'M_NOT_FOUND');
        expect(r.json.error).toBe(unseen);
      }
    });
  });

  describe('10 sync', () => {
    it('initial sync has the room with state and timeline; incremental sync long-polls for new events', async () => {
      const roomId = await createRoom(alice.accessToken, {
        preset: 'private_chat',
        invite: [bob.userId],
        name: 'Sync',
      });
      await post(`${room(roomId)}/join`, {}, bob.accessToken);
      await send(alice.accessToken, roomId, { msgtype: 'm.text', body: 'hello' }, 'm.room.message', 'sync-1');
      const initial = await sync(alice.accessToken, 'timeout=0');
      const joined = initial.rooms.join[roomId];
      const all = [...joined.state.events, ...joined.timeline.events];
      expect(all.some((e: any) => e.type === 'm.room.create')).toBe(true);
      const own = joined.timeline.events.find((e: any) => e.content?.body === 'hello');
      expect(own.unsigned.transaction_id).toBe('sync-1');
      expect(joined.timeline.prev_batch).toEqual(expect.any(String));

      const bobSince = (await sync(bob.accessToken, 'timeout=0')).next_batch;
      const pending = sync(bob.accessToken, `since=${bobSince}&timeout=10000`);
      await new Promise((r) => setTimeout(r, 200));
      await send(alice.accessToken, roomId, { msgtype: 'm.text', body: 'live' }, 'm.room.message', 'sync-2');
      const delta = await pending;
      expect(delta.next_batch).not.toBe(bobSince);
      const find = (s: any) =>
        s.rooms.join[roomId]?.timeline.events.find((e: any) => e.content?.body === 'live');
      const ev = find(delta) ?? (await syncUntil(bob.accessToken, delta.next_batch, find)).hit;
      expect(ev.sender).toBe(alice.userId);
      expect(ev.unsigned.transaction_id).toBeUndefined();
    });

    it('a limited timeline says so and its prev_batch pages back', async () => {
      const roomId = await createRoom(alice.accessToken, { preset: 'private_chat' });
      const since = (await sync(alice.accessToken, 'timeout=0')).next_batch;
      for (let i = 0; i < 6; i++) await send(alice.accessToken, roomId, { msgtype: 'm.text', body: `l${i}` });
      const filter = JSON.stringify({ room: { timeline: { limit: 3 } } });
      const s = await sync(alice.accessToken, `since=${since}&timeout=0&filter=${enc(filter)}`);
      const tl = s.rooms.join[roomId].timeline;
      expect(tl.limited).toBe(true);
      expect(tl.events.map((e: any) => e.content.body)).toEqual(['l3', 'l4', 'l5']);
      const back = await messages(alice.accessToken, roomId, `dir=b&limit=3&from=${enc(tl.prev_batch)}`);
      expect(back.chunk.map((e: any) => e.content.body)).toEqual(['l2', 'l1', 'l0']);
    });

    it('leaving shows the room under leave', async () => {
      const roomId = await createRoom(alice.accessToken, { preset: 'public_chat' });
      await post(`${room(roomId)}/join`, {}, bob.accessToken);
      const since = (await sync(bob.accessToken, 'timeout=0')).next_batch;
      await post(`${room(roomId)}/leave`, {}, bob.accessToken);
      const { hit } = await syncUntil(bob.accessToken, since, (s) => s.rooms.leave[roomId]);
      expect(hit.timeline.events.at(-1)).toMatchObject({
        type: 'm.room.member',
        content: { membership: 'leave' },
      });
    });
  });

  describe('11 typing, receipts, read markers, unread counts', () => {
    let roomId: string;
    beforeAll(async () => {
      roomId = await createRoom(alice.accessToken, { preset: 'private_chat', invite: [bob.userId] });
      await post(`${room(roomId)}/join`, {}, bob.accessToken);
    });

    it('typing reaches the other member as m.typing', async () => {
      const since = (await sync(bob.accessToken, 'timeout=0')).next_batch;
      expect(
        (
          await put(
            `${room(roomId)}/typing/${enc(alice.userId)}`,
            { typing: true, timeout: 20000 },
            alice.accessToken,
          )
        ).status,
      ).toBe(200);
      const typingOf = (s: any) =>
        s.rooms.join[roomId]?.ephemeral.events.find((e: any) => e.type === 'm.typing')?.content.user_ids;
      const on = await syncUntil(bob.accessToken, since, typingOf);
      expect(on.hit).toEqual([alice.userId]);
      await put(`${room(roomId)}/typing/${enc(alice.userId)}`, { typing: false }, alice.accessToken);
      const off = await syncUntil(bob.accessToken, on.next_batch, typingOf);
      expect(off.hit).toEqual([]);
    });

    it('unread counts grow with messages and clear with a read receipt, which the sender sees', async () => {
      await send(alice.accessToken, roomId, { msgtype: 'm.text', body: 'one' });
      await send(alice.accessToken, roomId, { msgtype: 'm.notice', body: 'a notice does not count' });
      const last = await send(alice.accessToken, roomId, { msgtype: 'm.text', body: 'two' });
      const s = await sync(bob.accessToken, 'timeout=0');
      expect(s.rooms.join[roomId].unread_notifications.notification_count).toBe(2);
      const aliceSince = (await sync(alice.accessToken, 'timeout=0')).next_batch;
      const receipt = await post(
        `${room(roomId)}/receipt/m.read/${enc(last.json.event_id)}`,
        {},
        bob.accessToken,
      );
      expect(receipt.status).toBe(200);
      const cleared = await syncUntil(bob.accessToken, s.next_batch, (x) =>
        x.rooms.join[roomId]?.unread_notifications.notification_count === 0 ? true : undefined,
      );
      expect(cleared.hit).toBe(true);
      const seen = await syncUntil(alice.accessToken, aliceSince, (x) =>
        x.rooms.join[roomId]?.ephemeral.events.find((e: any) => e.type === 'm.receipt'),
      );
      expect(seen.hit.content[last.json.event_id]['m.read'][bob.userId].ts).toEqual(expect.any(Number));
    });

    it('read markers set m.fully_read room account data', async () => {
      const last = await send(alice.accessToken, roomId, { msgtype: 'm.text', body: 'mark me' });
      const r = await post(
        `${room(roomId)}/read_markers`,
        { 'm.fully_read': last.json.event_id, 'm.read': last.json.event_id },
        bob.accessToken,
      );
      expect(r.status).toBe(200);
      const s = await sync(bob.accessToken, 'timeout=0');
      const marker = s.rooms.join[roomId].account_data.events.find((e: any) => e.type === 'm.fully_read');
      expect(marker.content.event_id).toBe(last.json.event_id);
    });
  });

  describe('11 account data and tags', () => {
    it('tags a room and stores global m.direct', async () => {
      const roomId = await createRoom(alice.accessToken, { preset: 'private_chat' });
      const tagPath = `/_matrix/client/v3/user/${enc(alice.userId)}/rooms/${enc(roomId)}/tags`;
      expect((await put(`${tagPath}/m.favourite`, { order: 0.5 }, alice.accessToken)).status).toBe(200);
      expect((await get(tagPath, alice.accessToken)).json.tags).toEqual({ 'm.favourite': { order: 0.5 } });
      const direct = { [bob.userId]: [roomId] };
      expect(
        (
          await put(
            `/_matrix/client/v3/user/${enc(alice.userId)}/account_data/m.direct`,
            direct,
            alice.accessToken,
          )
        ).status,
      ).toBe(200);
      const s = await sync(alice.accessToken, 'timeout=0');
      expect(s.account_data.events.find((e: any) => e.type === 'm.direct').content).toEqual(direct);
      const tags = s.rooms.join[roomId].account_data.events.find((e: any) => e.type === 'm.tag');
      expect(tags.content.tags['m.favourite'].order).toBe(0.5);
      expect((await call(t, 'DELETE', `${tagPath}/m.favourite`, { token: alice.accessToken })).status).toBe(
        200,
      );
      expect((await get(tagPath, alice.accessToken)).json.tags).toEqual({});
      const other = await get(
        `/_matrix/client/v3/user/${enc(alice.userId)}/account_data/m.direct`,
        bob.accessToken,
      );
      expect(other.status).toBe(403);
    });
  });

  describe('13 profiles', () => {
    it('sets and reads a display name', async () => {
      const path = `/_matrix/client/v3/profile/${enc(alice.userId)}/displayname`;
      expect((await put(path, { displayname: 'Alice A.' }, alice.accessToken)).status).toBe(200);
      expect((await get(path, bob.accessToken)).json.displayname).toBe('Alice A.');
      const hijack = await put(path, { displayname: 'hijack' }, bob.accessToken);
      expect(hijack.status).toBe(400);
      expect(hijack.json.errcode).toBe('M_FORBIDDEN');
      expect((await get(path, bob.accessToken)).json.displayname).toBe('Alice A.');
    });
  });

  describe('content repository', () => {
    it('uploads, downloads with authentication, thumbnails by cropping', async () => {
      const png = await testPng(200, 120);
      const up = await call(t, 'POST', '/_matrix/media/v3/upload?filename=red.png', {
        raw: png,
        contentType: 'image/png',
        token: alice.accessToken,
      });
      expect(up.status, JSON.stringify(up.json)).toBe(200);
      const [server, mediaId] = String(up.json.content_uri).replace('mxc://', '').split('/');
      const down = await get(`/_matrix/client/v1/media/download/${server}/${mediaId}`, bob.accessToken);
      expect(down.status).toBe(200);
      expect(down.bytes.equals(png)).toBe(true);
      const anon = await get(`/_matrix/client/v1/media/download/${server}/${mediaId}`);
      expect(anon.status).toBe(401);
      const thumb = await get(
        `/_matrix/client/v1/media/thumbnail/${server}/${mediaId}?width=64&height=64&method=crop`,
        bob.accessToken,
      );
      expect(thumb.status).toBe(200);
      const meta = await sharp(thumb.bytes).metadata();
      // Synapse serves its nearest pre-generated crop size at or above the request.
      expect(meta.width).toBe(meta.height);
      expect(meta.width).toBeGreaterThanOrEqual(64);
      const missing = await get(
        `/_matrix/client/v1/media/download/${server}/nope${mediaId}`,
        bob.accessToken,
      );
      expect(missing.status).toBe(404);
      expect(missing.json.errcode).toBe('M_NOT_FOUND');
    });
    it('reports the upload limit and refuses bigger uploads with M_TOO_LARGE', async () => {
      const cfg = await get('/_matrix/client/v1/media/config', alice.accessToken);
      expect(cfg.json['m.upload.size']).toBe(10 * MiB);
      const big = await call(t, 'POST', '/_matrix/media/v3/upload?filename=big.bin', {
        raw: Buffer.alloc(10 * MiB + 1, 1),
        contentType: 'application/octet-stream',
        token: alice.accessToken,
      });
      expect(big.status).toBe(413);
      expect(big.json.errcode).toBe('M_TOO_LARGE');
    });
  });
});
