import { type Friend, type FriendRequest, offlineStatus } from '@openpug/shared';
import { describe, expect, it } from 'vitest';
import {
  emptyFriendsState,
  type FriendsState,
  filterByName,
  friendsReducer,
  groupFriends,
  relationTo,
} from './state';

const ME = 'me';
const friend = (id: string, name: string, online = false, lastSeen: number | null = null): Friend => ({
  _id: id,
  name,
  avatar: null,
  steamUrl: null,
  matrixId: null,
  stats: { elo: 200 },
  rank: 1,
  status: { ...offlineStatus(), online, lastSeen },
});
const request = (id: string, from: string, to: string): FriendRequest => ({
  _id: id,
  requester: { _id: from, name: from, avatar: null, steamUrl: null },
  recipient: { _id: to, name: to, avatar: null },
  accepted: false,
  createdAt: '2025-01-01T00:00:00.000Z',
});
const run = (...events: Parameters<typeof friendsReducer>[1][]): FriendsState =>
  events.reduce(friendsReducer, emptyFriendsState());

describe('friends reducer', () => {
  it('loads the three lists separately and drops duplicates from the server', () => {
    const state = run({
      type: 'loaded',
      friends: [friend('a', 'Ann'), friend('a', 'Ann')],
      received: [request('r1', 'b', ME)],
      sent: [request('s1', ME, 'c'), request('s1', ME, 'c')],
    });
    expect(state.loaded).toBe(true);
    expect(state.friends.map((f) => f._id)).toEqual(['a']);
    expect(state.received.map((r) => r._id)).toEqual(['r1']);
    expect(state.sent.map((r) => r._id)).toEqual(['s1']);
  });

  it('adds a request once however often the event (or the REST answer) arrives', () => {
    const state = run(
      { type: 'sentRequest', request: request('s1', ME, 'c') },
      { type: 'sentRequest', request: request('s1', ME, 'c') },
      { type: 'receivedRequest', request: request('r1', 'b', ME) },
      { type: 'receivedRequest', request: request('r1', 'b', ME) },
    );
    expect(state.sent).toHaveLength(1);
    expect(state.received).toHaveLength(1);
  });

  it('keeps sent and received apart: removing one kind leaves the other', () => {
    const state = run(
      { type: 'sentRequest', request: request('x', ME, 'c') },
      { type: 'receivedRequest', request: request('y', 'b', ME) },
      { type: 'sentRequestGone', requestId: 'y' },
    );
    expect(state.sent.map((r) => r._id)).toEqual(['x']);
    expect(state.received.map((r) => r._id)).toEqual(['y']);
    const after = friendsReducer(state, { type: 'receivedRequestGone', requestId: 'y' });
    expect(after.received).toEqual([]);
    expect(after.sent).toHaveLength(1);
  });

  it('a new friend is added once and ends the pending request with them', () => {
    const state = run(
      { type: 'receivedRequest', request: request('r1', 'b', ME) },
      { type: 'sentRequest', request: request('s1', ME, 'c') },
      { type: 'newFriend', friend: friend('b', 'Bob') },
      { type: 'newFriend', friend: friend('b', 'Bob') },
      { type: 'newFriend', friend: friend('c', 'Cid') },
    );
    expect(state.friends.map((f) => f._id)).toEqual(['b', 'c']);
    expect(state.received).toEqual([]);
    expect(state.sent).toEqual([]);
  });

  it('removes a friend and ignores a removal of someone unknown', () => {
    const state = run({ type: 'newFriend', friend: friend('b', 'Bob') }, { type: 'friendGone', userId: 'b' });
    expect(state.friends).toEqual([]);
    const same = friendsReducer(state, { type: 'friendGone', userId: 'zzz' });
    expect(same.friends).toBe(state.friends);
  });

  it('applies live status and name changes to the matching friend only', () => {
    const state = run(
      { type: 'newFriend', friend: friend('b', 'Bob') },
      { type: 'newFriend', friend: friend('c', 'Cid') },
      { type: 'status', payload: { userId: 'b', status: { ...offlineStatus(), online: true } } },
      { type: 'name', payload: { userId: 'c', name: 'Cedric' } },
      { type: 'status', payload: { userId: 'stranger', status: { ...offlineStatus(), online: true } } },
    );
    expect(state.friends.find((f) => f._id === 'b')?.status.online).toBe(true);
    expect(state.friends.find((f) => f._id === 'c')?.status.online).toBe(false);
    expect(state.friends.find((f) => f._id === 'c')?.name).toBe('Cedric');
    expect(state.friends).toHaveLength(2);
  });
});

describe('groups and relation', () => {
  it('splits online and offline, online by name, offline most recently seen first', () => {
    const { online, offline } = groupFriends([
      friend('1', 'zed', true),
      friend('2', 'Amy', true),
      friend('3', 'old', false, 1000),
      friend('4', 'new', false, 5000),
    ]);
    expect(online.map((f) => f.name)).toEqual(['Amy', 'zed']);
    expect(offline.map((f) => f.name)).toEqual(['new', 'old']);
  });

  it('tells self, friend, sent, received and none apart', () => {
    const state = run(
      { type: 'newFriend', friend: friend('f', 'F') },
      { type: 'sentRequest', request: request('s1', ME, 's') },
      { type: 'receivedRequest', request: request('r1', 'r', ME) },
    );
    expect(relationTo(state, ME, ME)).toEqual({ kind: 'self' });
    expect(relationTo(state, ME, 'f')).toEqual({ kind: 'friend' });
    expect(relationTo(state, ME, 's')).toEqual({ kind: 'sent', requestId: 's1' });
    expect(relationTo(state, ME, 'r')).toEqual({ kind: 'received', requestId: 'r1' });
    expect(relationTo(state, ME, 'x')).toEqual({ kind: 'none' });
  });
});

describe('friend search filter', () => {
  const list = [
    friend('1', 'Alice'),
    friend('2', 'MALICE'),
    friend('3', 'Bob'),
    { ...friend('4', ''), name: null },
  ];
  it('matches a case-insensitive substring anywhere in the name', () => {
    expect(filterByName(list, 'lic').map((f) => f._id)).toEqual(['1', '2']);
    expect(filterByName(list, 'ALI').map((f) => f._id)).toEqual(['1', '2']);
    expect(filterByName(list, 'b').map((f) => f._id)).toEqual(['3']);
  });
  it('filters from one character on; an empty or blank query shows everyone', () => {
    expect(filterByName(list, 'o')).toHaveLength(1);
    expect(filterByName(list, '')).toHaveLength(4);
    expect(filterByName(list, '   ')).toHaveLength(4);
  });
  it('finds nobody for a name nobody has', () => {
    expect(filterByName(list, 'zzz')).toEqual([]);
  });
});
