/**
 * The jobs table stays bounded in real use: 1,000 times a player joins the queue and closes their
 * last tab — eight players at a time (ten would start an accept phase), every half hour, for 2.6
 * days. Each close books a `queue.disconnect` grace (a row keyed by the close time, so never
 * reused), the drop engine books a new `drops.roll` row every DROP_INTERVAL_MS and the count
 * changes book `queue-alerts.check` rows (one per second with changes); each row goes when its
 * job fires, so what is left between the cycles is the pending drop roll. The cycle calls the queue's own entry points (what its
 * socket handlers call), without the socket transport.
 * Also: a grace row an older release stored (`<userId>@start-<ms>`) is still handled.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  createTestUser,
  manualClock,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { jobs as jobsTable } from '../../jobs/schema';
import { rollJob } from '../drops/service';
import { lastTabClosed } from './disconnect';
import { joinQueue, queueCount, queueState } from './service';

const STEP_MS = 30 * 60_000;
const PLAYERS = 8;
const CYCLES = 1_000;

describe('jobs table over queue join/leave cycles', () => {
  const clock = manualClock();
  let t: TestApp;
  const players: TestUser[] = [];
  beforeAll(async () => {
    t = await createTestApp({ clock, env: { DROP_INTERVAL_MS: String(STEP_MS) } });
    await t.app.ready();
    for (let i = 0; i < PLAYERS; i++)
      players.push(await createTestUser(t.app, { teamSpeakId: `ts-bounded-${i}` }));
  });
  afterAll(() => t.close());

  it('holds only the pending deadlines through 1,000 joins and tab closes', async () => {
    const { ctx } = t.app;
    let most = 0;
    for (let step = 0; step < CYCLES / PLAYERS; step++) {
      // joinQueue throws ALREADY_IN_QUEUE if the last grace did not take the player out.
      for (const p of players) await joinQueue(ctx, p.id);
      for (const p of players) await lastTabClosed(ctx, p.id);
      clock.advance(STEP_MS);
      await ctx.jobs.runDue(); // the graces are over and no tab came back: everyone leaves
      expect(await queueCount(ctx.db)).toBe(0);
      most = Math.max(most, await ctx.jobs.rowCount());
    }
    // Per step PLAYERS closes, a roll and the queue alerts' check (one row per second with count
    // changes; the joins and the leaves of a step share one): 1,250 rows booked in all. Between
    // steps only the next drop roll and the check the last leaves booked (due a second later) are
    // pending; the day-long retention had kept about 480.
    expect(most).toBeLessThanOrEqual(2);
    expect(await ctx.jobs.hasPending(ctx.db, rollJob)).toBe(true);
  }, 240_000); // ~10 s alone; a busy two-core machine takes many times that

  it('handles a grace row an older release stored as <userId>@start-<ms>', async () => {
    const [player] = players;
    await joinQueue(t.app.ctx, player.id);
    // What the start-up of an older release booked for every queued player.
    const due = clock.now() + 1_000;
    const key = `${player.id}@start-${due}`;
    await t.app.ctx.db
      .insert(jobsTable)
      .values({ id: `queue.disconnect:${key}`, kind: 'queue.disconnect', key, dueAt: due });
    clock.advance(1_000);
    await t.app.ctx.jobs.runDue();
    expect((await queueState(t.app.ctx, player.id)).inQueue).toBe(false);
  });
});
