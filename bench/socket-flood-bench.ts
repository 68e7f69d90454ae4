/**
 * Socket flood benchmark (issue 21, "no socket flood starves others"): a signed-in player's
 * acknowledgement latency while another client floods the server, against the same player
 * without a flood, in the same run. The player (probe) sends `join-social` for a friend (a
 * database read, then the ack) every 100 ms; the flooder emits a cheap event 8,000 times a second
 * (the 40,000 events in 5 s of the original report) without waiting, and connects again at once
 * whenever the server disconnects it (retrying every 50 ms while its address is shut out). Three
 * phases of DURATION each:
 *
 *   baseline     no flood
 *   anonymous    a socket that never signs in floods `queue-message {event: 'join'}`
 *   signed-in    a signed-in socket floods `join-social` (a database read each when answered)
 *
 * The server runs in this process (the real app from source); probe and flooder each run in a
 * worker thread with real websocket connections over loopback, each under its own client address
 * (X-Forwarded-For), so the per-socket and the per-address budgets both apply
 * (apps/server/src/realtime/budget.ts).
 *
 *   node --import tsx bench/socket-flood-bench.ts              PGlite (in memory)
 *   DATABASE_URL=postgres://… node --import tsx bench/socket-flood-bench.ts
 *   options: --seconds=5 (per phase)  --rate=8000 (flood events per second)
 *
 * Target: each flood phase's probe p50 < 2 × the baseline p50. Hard limit 3 minutes.
 */
import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { friendRequests, users } from '../apps/server/src/db/schema';
import { arg, hardStop, openDatabase, pct, runBench, startBenchApp } from './lib';

const DURATION_MS = arg('seconds', 5) * 1000;
const RATE = arg('rate', 8000);
const PROBE_INTERVAL_MS = 100; // 10 a second: well within a player's socket budget (20/s)
hardStop('socket-flood-bench', 180_000);

function runWorker<T>(data: Record<string, unknown>): Promise<T> {
  const worker = new Worker(new URL('./socket-flood-clients.mjs', import.meta.url), { workerData: data });
  return new Promise<T>((resolve, reject) => {
    worker.once('message', (m) => {
      void worker.terminate();
      resolve(m as T);
    });
    worker.once('error', reject);
  });
}

interface FloodStats {
  sent: number;
  refused: number;
  disconnects: number;
  reconnects: number;
  refusedConnects: number;
}

async function main() {
  const { database, drop, kind } = await openDatabase();
  const { app, url, tokens } = await startBenchApp(database);

  // The probe, their friend, and the signed-in flooder (also the friend's friend, so each of its
  // events that gets through costs the same read as the probe's).
  const [probe, friend, flooder] = ['probe', 'friend', 'flooder'].map((name) => ({
    id: randomUUID(),
    name: `bench-${name}`,
    email: `bench-${name}@example.test`,
    verified: true,
  }));
  await database.db.insert(users).values([probe, friend, flooder]);
  await database.db.insert(friendRequests).values(
    [probe, flooder].map((p) => ({
      id: randomUUID(),
      requesterId: p.id,
      recipientId: friend.id,
      accepted: true,
      acceptedAt: new Date(),
    })),
  );
  const probeToken = (await tokens.sign(probe.id)).token;
  const flooderToken = (await tokens.sign(flooder.id)).token;

  const probeRun = () =>
    runWorker<{ latencies: number[] }>({
      role: 'probe',
      url,
      token: probeToken,
      address: '198.51.100.4',
      friendId: friend.id,
      intervalMs: PROBE_INTERVAL_MS,
      durationMs: DURATION_MS,
    });
  const floodRun = (signedIn: boolean) =>
    runWorker<FloodStats>({
      role: 'flood',
      url,
      token: signedIn ? flooderToken : undefined,
      // A phase of its own address: the first flood's shut-out must not keep the second one away.
      address: signedIn ? '203.0.113.8' : '203.0.113.7',
      rate: RATE,
      event: signedIn ? 'join-social' : 'queue-message',
      payload: signedIn ? friend.id : { event: 'join' },
      durationMs: DURATION_MS,
    });

  console.log(
    `socket-flood-bench: ${kind}; ${DURATION_MS / 1000} s a phase, probe every ${PROBE_INTERVAL_MS} ms, flood ${RATE}/s`,
  );
  const fmt = (v: number) => `${v.toFixed(1)} ms`;
  const summary = (latencies: number[]) => {
    const sorted = [...latencies].sort((a, b) => a - b);
    return { n: sorted.length, p50: pct(sorted, 50), p99: pct(sorted, 99), max: sorted[sorted.length - 1] };
  };
  const baseline = summary((await probeRun()).latencies);
  console.log(
    `  baseline:  ${baseline.n} acks, p50 ${fmt(baseline.p50)}, p99 ${fmt(baseline.p99)}, max ${fmt(baseline.max)}`,
  );
  let ok = true;
  for (const signedIn of [false, true]) {
    const [probed, flood] = await Promise.all([probeRun(), floodRun(signedIn)]);
    const s = summary(probed.latencies);
    const ratio = s.p50 / baseline.p50;
    ok &&= ratio < 2;
    console.log(
      `  ${signedIn ? 'signed-in' : 'anonymous'}: ${s.n} acks, p50 ${fmt(s.p50)} (${ratio.toFixed(2)}×), ` +
        `p99 ${fmt(s.p99)}, max ${fmt(s.max)}; flood sent ${flood.sent}, refused with an error event ` +
        `${flood.refused}, disconnected ${flood.disconnects}×, reconnected ${flood.reconnects}×, ` +
        `connections refused ${flood.refusedConnects}`,
    );
  }
  console.log(`socket-flood-bench: target p50 under flood < 2 × baseline: ${ok ? 'met' : 'NOT met'}`);

  await app.close();
  await database.close();
  await drop();
  return ok;
}

runBench(main);
