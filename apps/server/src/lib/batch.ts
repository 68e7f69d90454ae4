/**
 * Coalesces single-key lookups into one call for all of their keys (the DataLoader pattern,
 * without its cache: every answer is read after it was asked for, so nothing stale is ever
 * served — a revoked session is refused as before).
 *
 * Why: a reconnect storm signs thousands of sockets in at once and each sign-in made several
 * one-row queries (session generation, friends, presence, queue). On the embedded database each
 * query costs far more than its row, so the same reads for many sockets at a time cost a fraction
 * (bench/sockets-bench.ts). Keys go out on setImmediate, after the I/O callbacks of the current
 * loop turn have all asked (no added wait); while a call is running, new keys wait for it to end
 * and then go together.
 *
 * Hand-written rather than the `dataloader` package: without a cache it is these few lines.
 */
export function batched<K, V>(
  load: (keys: K[]) => Promise<Map<K, V>>,
  missing: V,
  { maxBatch = 1_000 }: { maxBatch?: number } = {},
): (key: K) => Promise<V> {
  let pending: Array<{ key: K; resolve: (v: V) => void; reject: (e: unknown) => void }> = [];
  let scheduled = false;
  let running = 0;
  const dispatch = () => {
    scheduled = false;
    const batch = pending;
    pending = [];
    for (let i = 0; i < batch.length; i += maxBatch) {
      const part = batch.slice(i, i + maxBatch);
      const keys = [...new Set(part.map((p) => p.key))];
      running++;
      Promise.resolve()
        .then(() => load(keys))
        .then(
          (found) => {
            for (const p of part) p.resolve(found.has(p.key) ? (found.get(p.key) as V) : missing);
          },
          (err) => {
            for (const p of part) p.reject(err);
          },
        )
        .finally(() => {
          running--;
          schedule();
        });
    }
  };
  const schedule = () => {
    if (scheduled || running > 0 || pending.length === 0) return;
    scheduled = true;
    setImmediate(dispatch);
  };
  return (key) =>
    new Promise<V>((resolve, reject) => {
      pending.push({ key, resolve, reject });
      schedule();
    });
}

/**
 * `batched` for lookups whose answer is a list of rows per key (a user's push subscriptions, a
 * phase's DMs): `load` returns the rows of all the keys, `keyOf` says whose each row is, and a key
 * without rows gets an empty list.
 */
export function batchedRows<K, R>(
  load: (keys: K[]) => Promise<R[]>,
  keyOf: (row: R) => K,
): (key: K) => Promise<R[]> {
  return batched(async (keys: K[]) => {
    const byKey = new Map<K, R[]>();
    for (const row of await load(keys)) byKey.set(keyOf(row), [...(byKey.get(keyOf(row)) ?? []), row]);
    return byKey;
  }, [] as R[]);
}
