import type { QueuePlayer, QueueState } from '@openpug/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { restoreQueue } from './actions';
import { dispatchQueue, useQueue } from './state';

const get = vi.hoisted(() => vi.fn());
vi.mock('../api', () => ({ api: { get } }));

const players: QueuePlayer[] = Array.from({ length: 10 }, (_, i) => ({
  userId: `u${i}`,
  name: `P${i}`,
  avatar: null,
  accepted: false,
}));
const queued = (over: Partial<QueueState> = {}): QueueState => ({
  count: 9,
  inQueue: true,
  joinedAt: 5,
  phase: null,
  matchId: null,
  cooldown: null,
  ...over,
});

afterEach(() => {
  get.mockReset();
  dispatchQueue({ type: 'reset' });
});

describe('restoreQueue', () => {
  it('reads again when an accept phase started while its read travelled, and keeps the phase', async () => {
    dispatchQueue({ type: 'ack', inQueue: true, count: 1, now: 5 });
    get.mockImplementationOnce(async () => {
      // The tenth player joins meanwhile: PRIVATE_QUEUE_READY arrives before this answer.
      dispatchQueue({ type: 'ready', players, deadline: 30_000 });
      return queued();
    });
    get.mockResolvedValueOnce(queued({ count: 10, phase: { players, deadline: 30_000 } }));
    await restoreQueue();
    expect(get).toHaveBeenCalledTimes(2);
    expect(useQueue.getState().phase?.deadline).toBe(30_000);
    expect(useQueue.getState().count).toBe(10);
  });

  it('reads once when nothing happened meanwhile, and gives way to the live events after three reads', async () => {
    get.mockResolvedValueOnce(queued());
    await restoreQueue();
    expect(get).toHaveBeenCalledTimes(1);
    expect(useQueue.getState()).toMatchObject({ inQueue: true, count: 9 });

    get.mockReset();
    // Every read is overtaken by one more accept in the phase.
    let acceptedSoFar = 0;
    get.mockImplementation(async () => {
      acceptedSoFar++;
      dispatchQueue({
        type: 'readyUpdate',
        players: players.map((p, i) => ({ ...p, accepted: i < acceptedSoFar })),
      });
      return queued({ phase: null });
    });
    dispatchQueue({ type: 'ready', players, deadline: 30_000 });
    await restoreQueue();
    expect(get).toHaveBeenCalledTimes(3);
    expect(useQueue.getState().phase?.players.filter((p) => p.accepted)).toHaveLength(3);
  });
});
