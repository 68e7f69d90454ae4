/**
 * Queue benchmark (issue 5): 1,000 socket clients queue and accept → 100 matches. For each group
 * of ten, the clock starts when the 10th player's `join` is sent and stops when the last of the
 * ten PRIVATE_QUEUE_READY arrives; figures are p50 / p99 / max over the 100 groups plus the total
 * time from the first join to the 100th PRIVATE_MATCH_START. The server runs in this process
 * (the real app from source); the clients run in a worker thread (bench/queue-clients.mjs), on
 * the other core, with real websocket connections over loopback.
 *
 *   node --import tsx bench/queue-bench.ts                 PGlite (in memory)
 *   DATABASE_URL=postgres://… node --import tsx bench/queue-bench.ts
 *                                                          PostgreSQL (a temporary database is
 *                                                          created next to the given one and dropped)
 *   options: --clients=1000  --concurrency=1 (groups in flight at once)
 *
 * Target: p99 < 50 ms on both. Stops by itself (hard limit 5 minutes).
 */
import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { users } from '../apps/server/src/db/schema';
import { arg, hardStop, openDatabase, pct, startBenchApp } from './lib';

const CLIENTS = arg('clients', 1000);
const CONCURRENCY = arg('concurrency', 1);
const GROUPS = Math.floor(CLIENTS / 10);
hardStop('queue-bench', 300_000);

async function main() {
  const { database, drop, kind } = await openDatabase();
  const { app, url, tokens } = await startBenchApp(database, {
    ACCEPT_TIMEOUT_MS: '120000',
    PICK_TIMEOUT_MS: '600000',
  });

  const people = Array.from({ length: GROUPS * 10 }, (_, i) => ({
    id: randomUUID(),
    name: `bench-${i}`,
    email: `bench-${i}@example.test`,
    teamSpeakId: `bench-ts-${i}`,
    elo: 150 + (i % 97),
    verified: true,
  }));
  for (let i = 0; i < people.length; i += 500)
    await database.db.insert(users).values(people.slice(i, i + 500));

  console.log(`queue-bench: ${kind}, ${people.length} clients connecting (in a worker thread)…`);
  const signed = await Promise.all(people.map(async (p) => (await tokens.sign(p.id)).token));
  const worker = new Worker(new URL('./queue-clients.mjs', import.meta.url), {
    workerData: { url, tokens: signed, groups: GROUPS, concurrency: CONCURRENCY },
  });
  const { latencies, total } = await new Promise<{ latencies: number[]; total: number }>(
    (resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    },
  );
  await worker.terminate();
  const [{ n }] = (await database.db.execute('SELECT count(*)::int AS n FROM matches')).rows as {
    n: number;
  }[];

  const sorted = [...latencies].sort((a, b) => a - b);
  const fmt = (v: number) => `${v.toFixed(1)} ms`;
  console.log(
    `queue-bench: ${kind}: ${GROUPS} groups → ${n} matches; 10th join → last PRIVATE_QUEUE_READY: ` +
      `p50 ${fmt(pct(sorted, 50))}, p99 ${fmt(pct(sorted, 99))}, max ${fmt(sorted[sorted.length - 1])}; ` +
      `total ${(total / 1000).toFixed(2)} s (first join → last PRIVATE_MATCH_START)`,
  );
  const ok = pct(sorted, 99) < 50 && Number(n) === GROUPS;
  console.log(`queue-bench: target p99 < 50 ms and ${GROUPS} matches: ${ok ? 'met' : 'NOT met'}`);

  await app.close();
  await database.close();
  await drop();
  process.exit(ok ? 0 : 1);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
