import type { QueuePlayer } from '@openpug/shared';
import { describe, expect, it } from 'vitest';
import { formatMmSs, isUrgent, secondsLeft } from '../../ui/countdown';
import { describeResult } from '../matches/result';
import { hasAccepted, initialQueue, placeIsCurrent, queueReducer, readyCount } from './state';

const players = (accepted: number): QueuePlayer[] =>
  Array.from({ length: 10 }, (_, i) => ({
    userId: `u${i}`,
    name: `P${i}`,
    avatar: null,
    accepted: i < accepted,
  }));

describe('queue widget state', () => {
  it('joins, counts the elapsed time from the join and leaves', () => {
    let s = queueReducer(initialQueue, { type: 'busy', busy: true });
    s = queueReducer(s, { type: 'ack', inQueue: true, count: 3, now: 1000 });
    expect(s).toMatchObject({ inQueue: true, count: 3, joinedAt: 1000, busy: false });
    s = queueReducer(s, { type: 'count', count: 4 });
    s = queueReducer(s, { type: 'ack', inQueue: true, count: 4, now: 5000 });
    expect(s.joinedAt).toBe(1000); // a second ack keeps the original join time
    s = queueReducer(s, { type: 'ack', inQueue: false, count: 3, now: 6000 });
    expect(s).toMatchObject({ inQueue: false, joinedAt: null, count: 3 });
  });

  it('restores after a reload, including a running accept phase', () => {
    const s = queueReducer(initialQueue, {
      type: 'restore',
      state: {
        count: 12,
        inQueue: true,
        joinedAt: 42,
        phase: { players: players(2), deadline: 9000 },
        matchId: null,
        cooldown: { kind: 'miss', endsAt: 99_000, offence: 2 },
      },
      now: 100,
      since: initialQueue.seen,
    });
    expect(s).toMatchObject({ inQueue: true, count: 12, joinedAt: 42 });
    expect(s.phase && readyCount(s.phase)).toBe(2);
    expect(s.cooldown).toEqual({ kind: 'miss', endsAt: 99_000, offence: 2 });
  });

  it('keeps an accept phase that started while a restore was on its way', () => {
    // A sync from another device sends GET /api/queue; the tenth player joins before it is
    // answered, and PRIVATE_QUEUE_READY and a count arrive first. The older answer changes neither.
    let s = queueReducer(initialQueue, { type: 'ack', inQueue: true, count: 1, now: 10 });
    const since = s.seen;
    s = queueReducer(s, { type: 'count', count: 10 });
    s = queueReducer(s, { type: 'ready', players: players(0), deadline: 30_000 });
    const older = { count: 9, inQueue: true, joinedAt: 10, phase: null, matchId: null, cooldown: null };
    s = queueReducer(s, { type: 'restore', state: older, now: 20, since });
    expect(s.phase?.deadline).toBe(30_000);
    expect(s.count).toBe(10);
    expect(placeIsCurrent(s, since)).toBe(false);
    // Read again after the events, the answer is applied whole.
    const again = s.seen;
    const phase = { players: players(1), deadline: 30_000 };
    s = queueReducer(s, { type: 'restore', state: { ...older, count: 10, phase }, now: 30, since: again });
    expect(placeIsCurrent(s, again)).toBe(true);
    expect(s.phase && readyCount(s.phase)).toBe(1);
  });

  it('takes a restored count unless a count came after the read, and the place unless an event told it', () => {
    let s = queueReducer(initialQueue, { type: 'ack', inQueue: true, count: 1, now: 10 });
    const since = s.seen;
    s = queueReducer(s, { type: 'count', count: 4 });
    const read = { count: 3, inQueue: false, joinedAt: null, phase: null, matchId: null, cooldown: null };
    s = queueReducer(s, { type: 'restore', state: read, now: 20, since });
    // The count came later than the read; the place was told by nothing since (left on another device).
    expect(s).toMatchObject({ count: 4, inQueue: false, joinedAt: null });
  });

  it('runs the accept flow: ready → updates → match clears the phase', () => {
    let s = queueReducer(
      { ...initialQueue, inQueue: true, joinedAt: 1 },
      { type: 'ready', players: players(0), deadline: 30_000 },
    );
    expect(s.phase?.deadline).toBe(30_000);
    expect(hasAccepted(s.phase!, 'u3')).toBe(false);
    s = queueReducer(s, { type: 'readyUpdate', players: players(4) });
    expect(readyCount(s.phase!)).toBe(4);
    expect(hasAccepted(s.phase!, 'u3')).toBe(true);
    s = queueReducer(s, { type: 'match' });
    expect(s).toMatchObject({ phase: null, inQueue: false, joinedAt: null });
  });

  it('kick leaves the queue and shows the aborted dialog; timeout keeps the place and names the others', () => {
    const inPhase = queueReducer(
      { ...initialQueue, inQueue: true, joinedAt: 1 },
      { type: 'ready', players: players(7), deadline: 1 },
    );
    const kicked = queueReducer(inPhase, { type: 'kick' });
    expect(kicked).toMatchObject({ kicked: true, phase: null, inQueue: false });
    const timedOut = queueReducer(inPhase, {
      type: 'timeout',
      unreadyProfiles: [{ userId: 'u9', name: 'P9', avatar: null }],
    });
    expect(timedOut).toMatchObject({ inQueue: true, joinedAt: 1, phase: null });
    expect(timedOut.timedOut?.map((p) => p.name)).toEqual(['P9']);
    expect(queueReducer(timedOut, { type: 'dismiss' }).timedOut).toBeNull();
    // an update arriving after the phase ended changes nothing
    expect(queueReducer(kicked, { type: 'readyUpdate', players: players(10) }).phase).toBeNull();
  });
});

describe('countdown from the server deadline', () => {
  it('counts whole seconds up to the deadline, mm:ss, red in the last ten', () => {
    expect(secondsLeft(31_000, 1_000)).toBe(30);
    expect(secondsLeft(1_200, 1_000)).toBe(1);
    expect(secondsLeft(500, 1_000)).toBe(0);
    expect(formatMmSs(30)).toBe('00:30');
    expect(formatMmSs(125)).toBe('02:05');
    expect(isUrgent(11)).toBe(false);
    expect(isUrgent(10)).toBe(true);
  });
});

describe('result text', () => {
  it('shows the real change and the new Elo', () => {
    expect(describeResult({ victory: true, oldElo: 200, newElo: 212 })).toMatchObject({
      key: 'matchResult.win',
      change: 12,
      signed: '+12',
      newElo: 212,
    });
    expect(describeResult({ victory: false, oldElo: 200, newElo: 190 })).toMatchObject({
      key: 'matchResult.loss',
      change: -10,
      signed: '−10',
      newElo: 190,
    });
    expect(describeResult({ victory: false, oldElo: 0, newElo: 0 }).signed).toBe('±0');
  });

  it('keeps the cooldown from the server: restored, started, lifted', () => {
    const started = queueReducer(initialQueue, {
      type: 'cooldown',
      cooldown: { kind: 'leave', endsAt: 5_000, offence: 1 },
    });
    expect(started.cooldown).toEqual({ kind: 'leave', endsAt: 5_000, offence: 1 });
    expect(queueReducer(started, { type: 'cooldown', cooldown: null }).cooldown).toBeNull();
  });
});
