import { randomUUID } from 'node:crypto';
import type { FriendRequest, SocialUser } from '@openpug/shared';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  connectSocket,
  createTestApp,
  createTestUser,
  nextEvent,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';

describe('friends: requests, friendships and their live events', () => {
  let t: TestApp;
  const sockets: Socket[] = [];
  const connect = async (user: TestUser) => {
    const s = await connectSocket(t.url, user.token);
    sockets.push(s);
    return s;
  };
  const api = (
    user: TestUser | null,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
  ) => t.app.inject({ method, url, payload, headers: user ? bearer(user.token) : {} });
  const requestsOf = async (user: TestUser) => (await api(user, 'GET', '/api/friends/requests')).json();
  const friendsOf = async (user: TestUser) =>
    ((await api(user, 'GET', '/api/friends')).json().friends as SocialUser[]).map((f) => f._id);
  const socialRoomSize = async (userId: string) =>
    (await t.app.ctx.realtime.io.in(`social:${userId}`).fetchSockets()).length;

  beforeAll(async () => {
    t = await createTestApp();
    await t.listen();
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await t.close();
  });

  it('runs the whole flow: request, refusals, accept, remove — with live events in every tab', async () => {
    const ann = await createTestUser(t.app, {
      name: 'Ann',
      steamUrl: 'https://steamcommunity.com/id/ann',
      elo: 250,
    });
    const bob = await createTestUser(t.app, { name: 'Bob', avatar: 'https://img/bob.png' });
    const carl = await createTestUser(t.app, { name: 'Carl' });
    const [annTab1, annTab2, bobTab] = [await connect(ann), await connect(ann), await connect(bob)];

    // --- send ---
    const sentTab1 = nextEvent<FriendRequest>(annTab1, 'privateNewRequestedFriendRequest');
    const sentTab2 = nextEvent<FriendRequest>(annTab2, 'privateNewRequestedFriendRequest');
    const received = nextEvent<FriendRequest>(bobTab, 'privateNewReceivedFriendRequest');
    const res = await api(ann, 'POST', '/api/friends', { recipient: bob.id });
    expect(res.statusCode).toBe(200);
    const request = res.json();
    expect(request).toEqual({
      _id: expect.any(String),
      requester: { _id: ann.id, name: 'Ann', avatar: null, steamUrl: 'https://steamcommunity.com/id/ann' },
      recipient: { _id: bob.id, name: 'Bob', avatar: 'https://img/bob.png' },
      accepted: false,
      createdAt: expect.any(String),
      msg: 'REQUEST_SENT',
    });
    const { msg: _msg, ...dto } = request;
    expect(await sentTab1).toEqual(dto);
    expect(await sentTab2).toEqual(dto);
    expect(await received).toEqual(dto);
    expect(await requestsOf(ann)).toEqual({ receivedFriendRequests: [], sentFriendRequests: [dto] });
    expect(await requestsOf(bob)).toEqual({ receivedFriendRequests: [dto], sentFriendRequests: [] });

    // --- refused sends: nothing changes ---
    const refusals: Array<[TestUser | null, object, number, string]> = [
      [ann, { recipient: ann.id }, 400, 'CANNOT_ADD_YOURSELF'],
      [ann, { recipient: bob.id }, 409, 'FRIEND_REQUEST_ALREADY_EXISTS'],
      [bob, { recipient: ann.id }, 409, 'FRIEND_REQUEST_ALREADY_EXISTS'],
      [ann, { recipient: randomUUID() }, 404, 'NOT_FOUND'],
      [ann, { recipient: 'not-an-id' }, 400, 'ID_MALFORMED'],
      [ann, { recipient: 42 }, 422, 'INVALID_INPUT'],
      [ann, {}, 422, 'MISSING'],
      [null, { recipient: bob.id }, 401, 'UNAUTHORIZED'],
    ];
    for (const [who, body, status, key] of refusals) {
      const r = await api(who, 'POST', '/api/friends', body);
      expect([r.statusCode, r.json()]).toEqual([status, { errors: { msg: key } }]);
    }
    expect(await requestsOf(ann)).toEqual({ receivedFriendRequests: [], sentFriendRequests: [dto] });
    expect(await requestsOf(bob)).toEqual({ receivedFriendRequests: [dto], sentFriendRequests: [] });

    // --- refused answers: the requester, a stranger, malformed ids and bodies ---
    const answerRefusals: Array<[TestUser, string, object, number, string]> = [
      [ann, dto._id, { accepted: true }, 403, 'ONLY_RECIPIENT_CAN_ANSWER'],
      [carl, dto._id, { accepted: true }, 404, 'NOT_FOUND'],
      [bob, 'xyz', { accepted: true }, 400, 'ID_MALFORMED'],
      [bob, randomUUID(), { accepted: true }, 404, 'NOT_FOUND'],
      [bob, dto._id, {}, 422, 'MISSING'],
      [bob, dto._id, { accepted: 'yes' }, 422, 'INVALID_INPUT'],
    ];
    for (const [who, id, body, status, key] of answerRefusals) {
      const r = await api(who, 'PATCH', `/api/friends/${id}`, body);
      expect([r.statusCode, r.json()]).toEqual([status, { errors: { msg: key } }]);
    }
    const strangerDelete = await api(carl, 'DELETE', `/api/friends/${dto._id}`);
    expect([strangerDelete.statusCode, strangerDelete.json()]).toEqual([
      404,
      { errors: { msg: 'NOT_FOUND' } },
    ]);
    expect(await requestsOf(bob)).toEqual({ receivedFriendRequests: [dto], sentFriendRequests: [] });
    expect(await friendsOf(ann)).toEqual([]);

    // --- accept ---
    const annGone = nextEvent(annTab2, 'privateDeleteRequestedFriendRequest');
    const bobGone = nextEvent(bobTab, 'privateDeleteReceivedFriendRequest');
    const annNewFriend = nextEvent<SocialUser>(annTab1, 'privateNewFriend');
    const bobNewFriend = nextEvent<SocialUser>(bobTab, 'privateNewFriend');
    const accepted = await api(bob, 'PATCH', `/api/friends/${dto._id}`, { accepted: true });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({
      request: { _id: dto._id, accepted: true },
      friend: { _id: ann.id, name: 'Ann' },
      msg: 'ACCEPTED_SUCCESSFULLY',
    });
    expect(await annGone).toEqual({ _id: dto._id });
    expect(await bobGone).toEqual({ _id: dto._id });
    expect((await annNewFriend)._id).toBe(bob.id);
    const annAsFriend = await bobNewFriend;
    expect(annAsFriend).toEqual({
      _id: ann.id,
      name: 'Ann',
      avatar: null,
      steamUrl: 'https://steamcommunity.com/id/ann',
      matrixId: expect.stringMatching(new RegExp(`^@${ann.id}:`)),
      stats: { elo: 250 },
      rank: expect.any(Number),
      status: expect.objectContaining({ online: true, inQueue: false }),
    });
    expect(await requestsOf(bob)).toEqual({ receivedFriendRequests: [], sentFriendRequests: [] });
    expect(await friendsOf(ann)).toEqual([bob.id]);
    expect(await friendsOf(bob)).toEqual([ann.id]);
    // Every open tab of each now follows the other's social room.
    expect(await socialRoomSize(bob.id)).toBe(2);
    expect(await socialRoomSize(ann.id)).toBe(1);

    // --- answering twice, cancelling an accepted request, asking a friend again ---
    for (const body of [{ accepted: true }, { accepted: false }]) {
      const again = await api(bob, 'PATCH', `/api/friends/${dto._id}`, body);
      expect([again.statusCode, again.json()]).toEqual([
        409,
        { errors: { msg: 'FRIEND_REQUEST_ALREADY_ANSWERED' } },
      ]);
    }
    for (const who of [ann, bob]) {
      const cancel = await api(who, 'DELETE', `/api/friends/${dto._id}`);
      expect([cancel.statusCode, cancel.json()]).toEqual([
        409,
        { errors: { msg: 'FRIEND_REQUEST_ALREADY_ACCEPTED' } },
      ]);
    }
    const askAgain = await api(bob, 'POST', '/api/friends', { recipient: ann.id });
    expect([askAgain.statusCode, askAgain.json()]).toEqual([409, { errors: { msg: 'ALREADY_FRIENDS' } }]);
    expect(await friendsOf(ann)).toEqual([bob.id]);

    // --- join-social / leave-social ---
    expect(await annTab1.emitWithAck('join-social', bob.id)).toEqual({ ok: true, data: { userId: bob.id } });
    expect(await annTab1.emitWithAck('join-social', { userId: bob.id })).toEqual({
      ok: true,
      data: { userId: bob.id },
    });
    const carlTab = await connect(carl);
    expect(await carlTab.emitWithAck('join-social', bob.id)).toEqual({ ok: false, msg: 'NOT_FRIENDS' });
    expect(await carlTab.emitWithAck('join-social', carl.id)).toEqual({ ok: false, msg: 'NOT_FRIENDS' });
    expect(await carlTab.emitWithAck('join-social', 'nope')).toEqual({ ok: false, msg: 'ID_MALFORMED' });
    expect(await carlTab.emitWithAck('join-social', {})).toEqual({ ok: false, msg: 'INVALID_INPUT' });
    expect(await carlTab.emitWithAck('join-social')).toEqual({ ok: false, msg: 'MISSING' });
    expect(await socialRoomSize(bob.id)).toBe(2);
    const anon = await connectSocket(t.url);
    sockets.push(anon);
    expect(await anon.emitWithAck('join-social', bob.id)).toEqual({ ok: false, msg: 'UNAUTHORIZED' });
    expect(await annTab2.emitWithAck('leave-social', bob.id)).toEqual({ ok: true, data: { userId: bob.id } });
    expect(await socialRoomSize(bob.id)).toBe(1);
    expect(await annTab2.emitWithAck('join-social', bob.id)).toMatchObject({ ok: true });

    // --- remove ---
    for (const [id, status, key] of [
      ['bad-id', 400, 'ID_MALFORMED'],
      [carl.id, 404, 'NOT_FRIENDS'],
    ] as const) {
      const r = await api(ann, 'DELETE', `/api/friends/existing/${id}`);
      expect([r.statusCode, r.json()]).toEqual([status, { errors: { msg: key } }]);
    }
    expect(await friendsOf(ann)).toEqual([bob.id]);
    const annRemoved = nextEvent(annTab2, 'privateDeleteFriend');
    const bobRemoved = nextEvent(bobTab, 'privateDeleteFriend');
    const removed = await api(ann, 'DELETE', `/api/friends/existing/${bob.id}`);
    expect([removed.statusCode, removed.json()]).toEqual([200, { _id: bob.id, msg: 'REMOVED_SUCCESSFULLY' }]);
    expect(await annRemoved).toEqual({ _id: bob.id });
    expect(await bobRemoved).toEqual({ _id: ann.id });
    expect(await friendsOf(ann)).toEqual([]);
    expect(await friendsOf(bob)).toEqual([]);
    await expect.poll(() => socialRoomSize(bob.id)).toBe(0);
    await expect.poll(() => socialRoomSize(ann.id)).toBe(0);
    expect(await annTab1.emitWithAck('join-social', bob.id)).toEqual({ ok: false, msg: 'NOT_FRIENDS' });
    const removeAgain = await api(bob, 'DELETE', `/api/friends/existing/${ann.id}`);
    expect([removeAgain.statusCode, removeAgain.json()]).toEqual([404, { errors: { msg: 'NOT_FRIENDS' } }]);
    // After a removal either may ask again.
    expect((await api(bob, 'POST', '/api/friends', { recipient: ann.id })).statusCode).toBe(200);
  });

  it('lets the requester cancel and the recipient decline, updating both sides live', async () => {
    const dora = await createTestUser(t.app, { name: 'Dora' });
    const emil = await createTestUser(t.app, { name: 'Emil' });
    const [doraTab, emilTab] = [await connect(dora), await connect(emil)];

    const first = (await api(dora, 'POST', '/api/friends', { recipient: emil.id })).json();
    const emilSees = nextEvent(emilTab, 'privateDeleteReceivedFriendRequest');
    const doraSees = nextEvent(doraTab, 'privateDeleteRequestedFriendRequest');
    const cancel = await api(dora, 'DELETE', `/api/friends/${first._id}`);
    expect([cancel.statusCode, cancel.json()]).toEqual([
      200,
      { _id: first._id, msg: 'CANCELLED_SUCCESSFULLY' },
    ]);
    expect(await emilSees).toEqual({ _id: first._id });
    expect(await doraSees).toEqual({ _id: first._id });
    const twice = await api(dora, 'DELETE', `/api/friends/${first._id}`);
    expect([twice.statusCode, twice.json()]).toEqual([404, { errors: { msg: 'NOT_FOUND' } }]);
    const acceptCancelled = await api(emil, 'PATCH', `/api/friends/${first._id}`, { accepted: true });
    expect([acceptCancelled.statusCode, acceptCancelled.json()]).toEqual([
      404,
      { errors: { msg: 'NOT_FOUND' } },
    ]);
    expect(await requestsOf(emil)).toEqual({ receivedFriendRequests: [], sentFriendRequests: [] });

    // Decline by DELETE …
    const second = (await api(emil, 'POST', '/api/friends', { recipient: dora.id })).json();
    const emilNotified = nextEvent(emilTab, 'privateDeleteRequestedFriendRequest');
    const decline = await api(dora, 'DELETE', `/api/friends/${second._id}`);
    expect([decline.statusCode, decline.json()]).toEqual([
      200,
      { _id: second._id, msg: 'DECLINED_SUCCESSFULLY' },
    ]);
    expect(await emilNotified).toEqual({ _id: second._id });

    // … and by PATCH {accepted:false}.
    const third = (await api(emil, 'POST', '/api/friends', { recipient: dora.id })).json();
    const declined = await api(dora, 'PATCH', `/api/friends/${third._id}`, { accepted: false });
    expect(declined.statusCode).toBe(200);
    expect(declined.json()).toMatchObject({
      request: { _id: third._id },
      friend: null,
      msg: 'DECLINED_SUCCESSFULLY',
    });
    expect(await friendsOf(dora)).toEqual([]);
    expect(await requestsOf(dora)).toEqual({ receivedFriendRequests: [], sentFriendRequests: [] });
  });

  it('never creates two requests when two users ask each other at the same moment', async () => {
    for (let round = 0; round < 5; round++) {
      const a = await createTestUser(t.app);
      const b = await createTestUser(t.app);
      const results = await Promise.all([
        api(a, 'POST', '/api/friends', { recipient: b.id }),
        api(b, 'POST', '/api/friends', { recipient: a.id }),
      ]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect(results.find((r) => r.statusCode === 409)?.json()).toEqual({
        errors: { msg: 'FRIEND_REQUEST_ALREADY_EXISTS' },
      });
      const { receivedFriendRequests, sentFriendRequests } = await requestsOf(a);
      expect(receivedFriendRequests.length + sentFriendRequests.length).toBe(1);
    }
  });

  it('joins the social rooms of existing friends when a socket signs in, and leaves them on logout', async () => {
    const fay = await createTestUser(t.app, { name: 'Fay' });
    const gus = await createTestUser(t.app, { name: 'Gus' });
    const req = (await api(fay, 'POST', '/api/friends', { recipient: gus.id })).json();
    await api(gus, 'PATCH', `/api/friends/${req._id}`, { accepted: true });
    const fayTab = await connect(fay);
    expect(await socialRoomSize(gus.id)).toBe(1);
    fayTab.emit('logout');
    await expect.poll(() => socialRoomSize(gus.id)).toBe(0);
  });
});
