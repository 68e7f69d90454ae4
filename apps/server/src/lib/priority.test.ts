import { describe, expect, it } from 'vitest';
import { Priority } from './priority';

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('Priority: deferrable work waits while urgent work runs', () => {
  it('runs at once when nothing urgent runs', async () => {
    const priority = new Priority();
    const ran: string[] = [];
    await priority.deferrable(async () => {
      ran.push('push');
    });
    expect(ran).toEqual(['push']);
  });

  it('waits until the last urgent work ends, then runs everything that waited, in order', async () => {
    const priority = new Priority(60_000);
    const ran: string[] = [];
    priority.urgentBegins(); // the joins' batch
    priority.urgentBegins(); // the accepts' batch
    const done = Promise.all(
      ['push', 'discord', 'chat'].map((what) =>
        priority.deferrable(async () => {
          ran.push(what);
        }),
      ),
    );
    await turn();
    expect(ran).toEqual([]);
    priority.urgentEnds();
    await turn();
    expect(ran).toEqual([]); // the accepts still write
    priority.urgentEnds();
    await done;
    expect(ran).toEqual(['push', 'discord', 'chat']);
  });

  it('never waits longer than its limit, so a queue that never rests starves nothing', async () => {
    const priority = new Priority(30);
    priority.urgentBegins();
    const started = performance.now();
    let ran = false;
    await priority.deferrable(async () => {
      ran = true;
    });
    expect(ran).toBe(true);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
    // Urgent work that ends afterwards finds nobody left to release, and more may wait again.
    priority.urgentEnds();
    await priority.calm();
  });

  it('an end without a beginning leaves it calm', async () => {
    const priority = new Priority(60_000);
    priority.urgentEnds();
    priority.urgentBegins();
    let ran = false;
    const waiting = priority.deferrable(async () => {
      ran = true;
    });
    await turn();
    expect(ran).toBe(false);
    priority.urgentEnds();
    await waiting;
    expect(ran).toBe(true);
  });
});
