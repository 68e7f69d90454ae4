/**
 * What every socket may send before its events are looked at: a token bucket per socket (events
 * per second, with a burst), smaller before sign-in, and the events that exist at all.
 *
 * Why: one client that never signed in, emitting a cheap event in a loop (40,000 in 5 s), pushed
 * another player's acknowledgement p50 from 4 ms to 2.2 s. Each event now spends a token before
 * any parsing or database work; an event over budget is refused with TOO_MANY_REQUESTS, and a
 * socket that keeps sending past its budget is disconnected. Unknown event names are refused
 * with INVALID_INPUT instead of being dropped without a word.
 */

export interface Bucket {
  /** Tokens added per second. */
  perSecond: number;
  /** Tokens the bucket holds at most (a burst of events). */
  burst: number;
}

export const SOCKET_BUDGET = {
  anonymous: { perSecond: 5, burst: 20 } satisfies Bucket,
  signedIn: { perSecond: 20, burst: 60 } satisfies Bucket,
  /**
   * All sockets of one client address together (after TRUST_PROXY): many sockets from one place
   * cannot add up their budgets. A household or LAN party shares an address, hence the room.
   * Loopback clients (this machine: tests, benchmarks, a local proxy without X-Forwarded-For) are
   * not counted.
   */
  address: { perSecond: 100, burst: 300 } satisfies Bucket,
  /** Events refused one after another for being over budget before the socket is disconnected. */
  refusalsBeforeDisconnect: 50,
  /**
   * After such a disconnect, the client address may not open a new socket for this long: a
   * flooder that reconnects at once would otherwise cost a handshake and a fresh burst each time
   * (bench/socket-flood-bench.ts measured ~30 reconnects a second). Not for loopback clients.
   */
  shutOutMs: 10_000,
  /** Largest message a client may send (Socket.IO's maxHttpBufferSize; its default is 1 MB). */
  maxPayloadBytes: 64 * 1024,
};

export type BudgetVerdict = 'ok' | 'over' | 'disconnect';

/** A token bucket; `take` answers whether a token was there. */
export function tokenBucket(rule: Bucket, now: () => number) {
  let tokens = rule.burst;
  let last = now();
  return {
    take(): boolean {
      const t = now();
      tokens = Math.min(rule.burst, tokens + ((t - last) / 1000) * rule.perSecond);
      last = t;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
    /** Full again (nothing spent for a while): the bucket can be forgotten. */
    idle(): boolean {
      return tokens + ((now() - last) / 1000) * rule.perSecond >= rule.burst;
    },
  };
}

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/**
 * Buckets per client address, shared by every socket from it; idle ones are dropped. An address
 * whose socket was disconnected for abuse is shut out of new handshakes for `shutOutMs`.
 */
export function addressBudgets(now: () => number) {
  const buckets = new Map<string, ReturnType<typeof tokenBucket>>();
  const shutOutUntil = new Map<string, number>();
  let sweptAt = now();
  return {
    shutOut(address: string): void {
      if (!LOOPBACK.test(address)) shutOutUntil.set(address, now() + SOCKET_BUDGET.shutOutMs);
    },
    /** Whether the address may open a socket now. */
    admits(address: string): boolean {
      const until = shutOutUntil.get(address);
      if (until === undefined) return true;
      if (until > now()) return false;
      shutOutUntil.delete(address);
      return true;
    },
    take(address: string): boolean {
      if (LOOPBACK.test(address)) return true;
      if (now() - sweptAt > 60_000) {
        sweptAt = now();
        for (const [key, bucket] of buckets) if (bucket.idle()) buckets.delete(key);
        for (const [key, until] of shutOutUntil) if (until <= sweptAt) shutOutUntil.delete(key);
      }
      let bucket = buckets.get(address);
      if (!bucket) {
        bucket = tokenBucket(SOCKET_BUDGET.address, now);
        buckets.set(address, bucket);
      }
      return bucket.take();
    },
  };
}

/** One socket's budget; `spend` is called once per incoming event with the current time. */
export function socketBudget(now: () => number) {
  let tokens = SOCKET_BUDGET.anonymous.burst;
  let last = now();
  let refusedInARow = 0;
  return {
    spend(signedIn: boolean): BudgetVerdict {
      const rule = signedIn ? SOCKET_BUDGET.signedIn : SOCKET_BUDGET.anonymous;
      const t = now();
      tokens = Math.min(rule.burst, tokens + ((t - last) / 1000) * rule.perSecond);
      last = t;
      if (tokens >= 1) {
        tokens -= 1;
        refusedInARow = 0;
        return 'ok';
      }
      refusedInARow += 1;
      return refusedInARow >= SOCKET_BUDGET.refusalsBeforeDisconnect ? 'disconnect' : 'over';
    },
  };
}
