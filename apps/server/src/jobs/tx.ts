/**
 * Transactions with after-commit effects: state changes commit first, then the socket events,
 * status patches and timers collected in `After` run. A rolled-back transaction emits nothing.
 */
import type { Db } from '../db/client';

type Effect = () => unknown | Promise<unknown>;

export class After {
  private readonly effects: { fn: Effect; awaited: boolean }[] = [];
  add(fn: Effect): void {
    this.effects.push({ fn, awaited: true });
  }
  /**
   * An effect started in its turn like the others, whose end `run` does not wait for: what the
   * transaction's caller answers must not wait behind it (a status write behind a queue ack,
   * issue 20 target 5). It has to take its own place in line when started, as status patches do
   * (presence's patchStatusTogether queues them in call order).
   */
  background(fn: Effect): void {
    this.effects.push({ fn, awaited: false });
  }
  async run(log: { error(obj: object, msg: string): void } = console): Promise<void> {
    const failed = (err: unknown) => log.error({ err }, 'after-commit effect failed');
    for (const { fn, awaited } of this.effects) {
      try {
        const done = fn();
        if (awaited) await done;
        else Promise.resolve(done).catch(failed);
      } catch (err) {
        failed(err);
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
