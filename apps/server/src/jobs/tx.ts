/**
 * Transactions with after-commit effects: state changes commit first, then the socket events,
 * status patches and timers collected in `After` run. A rolled-back transaction emits nothing.
 */
import type { Db } from '../db/client';

type Effect = () => unknown | Promise<unknown>;

export class After {
  private readonly effects: Effect[] = [];
  add(fn: Effect): void {
    this.effects.push(fn);
  }
  async run(log: { error(obj: object, msg: string): void } = console): Promise<void> {
    for (const fn of this.effects) {
      try {
        await fn();
      } catch (err) {
        log.error({ err }, 'after-commit effect failed');
      }
    }
  }
}

export async function inTransaction<T>(
  db: Db,
  fn: (tx: Db, after: After) => Promise<T>,
  log?: { error(obj: object, msg: string): void },
): Promise<T> {
  const after = new After();
  const result = await db.transaction((tx) => fn(tx as unknown as Db, after));
  await after.run(log);
  return result;
}
