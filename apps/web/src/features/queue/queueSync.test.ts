import { afterEach, describe, expect, it, vi } from 'vitest';
import { syncQueueFrom } from './queueSync';
import { dispatchQueue } from './state';

const restoreQueue = vi.hoisted(() => vi.fn(async () => undefined));
vi.mock('./actions', () => ({ restoreQueue }));

afterEach(() => {
  restoreQueue.mockClear();
  dispatchQueue({ type: 'reset' });
});

describe('queue state across devices (the status every socket of the user hears)', () => {
  it('re-reads the queue when the status says otherwise than the widget (joined on the phone)', () => {
    expect(syncQueueFrom({ status: { inQueue: true } })).toBe(true);
    expect(restoreQueue).toHaveBeenCalledTimes(1);
  });

  it('reads nothing when the widget already shows it, while its own answer is on the way, or without a queue field', () => {
    dispatchQueue({ type: 'ack', inQueue: true, count: 1, now: 0 });
    expect(syncQueueFrom({ status: { inQueue: true } })).toBe(false);
    dispatchQueue({ type: 'busy', busy: true }); // this tab's leave is under way
    expect(syncQueueFrom({ status: { inQueue: false } })).toBe(false);
    expect(syncQueueFrom({})).toBe(false);
    expect(restoreQueue).not.toHaveBeenCalled();
  });
});
