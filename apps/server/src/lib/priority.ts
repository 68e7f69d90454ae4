/**
 * Work players wait on with a clock running, and work that can wait a moment.
 *
 * Urgent: the queue's transactions (a join, an accept: the ten wait for their accept phase and
 * their match). Deferrable: what a queue change sets off around it — notifications (push, Discord,
 * WhatsApp), chat room joins, substitute offers to newcomers, queue-alert checks. On two cores the
 * deferrable kind ran between the statements of every queue transaction in a burst of 1,000 joins:
 * a fifth of the server thread's time, and each statement of a queue transaction waited behind it
 * (issue 20 target 4, bench/RESULTS.md "session 18"). So while urgent work runs or waits,
 * deferrable work waits for it to stop — at most `maxWaitMs`, so a queue that never rests starves
 * nothing: under steady load deferrable work runs at most that late.
 *
 * Hand-written: a counter and a list of waiters; no scheduling library knows which of our work is
 * urgent.
 */
export class Priority {
  private urgent = 0;
  private readonly waiters = new Set<() => void>();

  constructor(private readonly maxWaitMs = 1_000) {}

  /** Urgent work begins (a queue batch has requests waiting or running). */
  urgentBegins(): void {
    this.urgent++;
  }

  /** Urgent work that began is over; deferred work goes once nothing urgent is left. */
  urgentEnds(): void {
    this.urgent = Math.max(0, this.urgent - 1);
    if (this.urgent === 0) this.release();
  }

  /** Resolves at once when nothing urgent runs, else when it stops or after maxWaitMs. */
  calm(): Promise<void> {
    if (this.urgent === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const go = () => {
        clearTimeout(timer);
        this.waiters.delete(go);
        resolve();
      };
      const timer = setTimeout(go, this.maxWaitMs);
      timer.unref?.();
      this.waiters.add(go);
    });
  }

  /** Runs `fn` once calm (see calm). */
  async deferrable<T>(fn: () => Promise<T>): Promise<T> {
    await this.calm();
    return fn();
  }

  private release(): void {
    for (const go of [...this.waiters]) go();
  }
}
