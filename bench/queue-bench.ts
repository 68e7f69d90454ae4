import { Worker } from 'node:worker_threads';
import { arg, hardStop, insertBenchPlayers, openDatabase, pct, runBench, startBenchApp } from './lib';

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

  const people = await insertBenchPlayers(database, GROUPS * 10);

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
  return ok;
}

runBench(main);
