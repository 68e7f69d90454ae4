/**
 * Persisted deadlines (scheduler.ts), their typed definitions (define.ts) and transactions with
 * after-commit effects (tx.ts). The app builds one Scheduler per context (`ctx.jobs`) and starts
 * it once every module has registered its job kinds.
 */
import type { AppContext } from '../context';

/** Errors of background work (jobs, after-commit effects) go to the app's pino logger. */
export function logOf(ctx: AppContext): { error(obj: object, msg: string): void } {
  return ctx.log;
}

export { defineJob, type JobDefinition, type JobKind, jobField } from './define';
export { Scheduler } from './scheduler';
export { After, inTransaction } from './tx';
