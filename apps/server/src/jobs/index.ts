/**
 * One scheduler per app context (modules register handlers while their plugins load; the
 * matchmaking plugin starts it onReady and stops it on close).
 */
import type { AppContext } from '../context';
import { Scheduler } from './scheduler';

const schedulers = new WeakMap<object, Scheduler>();

export function jobsOf(ctx: AppContext): Scheduler {
  let s = schedulers.get(ctx);
  if (!s) {
    s = new Scheduler(ctx.db, ctx.clock, logOf(ctx), ctx.config.JOBS_POLL_MS);
    schedulers.set(ctx, s);
  }
  return s;
}

/** Errors of background work (jobs, after-commit effects) go to the app's pino logger. */
export function logOf(ctx: AppContext): { error(obj: object, msg: string): void } {
  return ctx.log;
}

/**
 * A job key `<matchId>:<n>` (a pick, a ban, a simulator step, a load attempt) → its parts; match
 * ids are uuids without colons.
 */
export function splitIndexedKey(key: string): [string, number] {
  const i = key.lastIndexOf(':');
  return [key.slice(0, i), Number(key.slice(i + 1))];
}

export { Scheduler } from './scheduler';
export { After, inTransaction } from './tx';
