/**
 * Coalesces single-key lookups made in the same turn of the event loop into one call for all of
 * their keys (the DataLoader pattern, without its cache: every answer is read after it was asked
 * for, so nothing stale is ever served — a revoked session is refused as before).
 *
 * Why: a reconnect storm signs thousands of sockets in at once and each sign-in made several
 * one-row queries (session generation, friends, presence, queue). On the embedded database each
 * query costs far more than its row, so the same reads for a few hundred sockets at a time cost
 * a fraction (bench/sockets-bench.ts). Keys are dispatched on setImmediate, after the I/O
 * callbacks of the current loop turn have all asked.
 *
 * Hand-written rather than the `dataloader` package: without a cache it is these few lines.
 */
export function batched<K, V>(
  load: (keys: K[]) => Promise<Map<K, V>>,
  missing: V,
  maxBatch = 1_000,
): (key: K) => Promise<V> {
  let pending: Array<{ key: K; resolve: (v: V) => void; reject: (e: unknown) => void }> = [];
  const dispatch = () => {
    const batch = pending;
    pending = [];
    for (let i = 0; i < batch.length; i += maxBatch) {
      const part = batch.slice(i, i + maxBatch);
      const keys = [...new Set(part.map((p) => p.key))];
      Promise.resolve()
        .then(() => load(keys))
        .then(
          (found) => {
            for (const p of part) p.resolve(found.has(p.key) ? (found.get(p.key) as V) : missing);
          },
          (err) => {
            for (const p of part) p.reject(err);
          },
        );
    }
  };
  return (key) =>
    new Promise<V>((resolve, reject) => {
      if (pending.length === 0) setImmediate(dispatch);
      pending.push({ key, resolve, reject });
    });
}
