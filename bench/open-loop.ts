/**
 * A uniform open loop: one request every 1000/rate ms for `seconds`, whatever the answers, each
 * latency counted from the moment the request was due, so that a server falling behind shows its
 * queue instead of slowing the load down (no coordinated omission). It runs in a worker thread,
 * as autocannon does, so the app's event loop never paces it.
 *
 * Why not autocannon's `overallRate`: autocannon limits each connection to its share of the rate
 * per one-second tick, so every connection fires its share at the start of the tick and the
 * requests arrive in bursts of about `connections`. With 32 connections at 100 req/s, a player
 * page costing 1.1 ms of the server's time measured p50 18 ms: half a burst queued in front of
 * it. The same page with four requests always in flight, about 880 req/s, measured p50 4 ms
 * (bench/RESULTS.md, "Player pages").
 */
import http from 'node:http';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

export interface OpenLoopResult {
  sent: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
}

interface Job {
  url: string;
  paths: string[];
  rate: number;
  seconds: number;
}

/** Requests the paths (in turn) of `url`'s server at `rate` per second for `seconds`. */
export function openLoop(
  url: string,
  paths: string[],
  rate: number,
  seconds: number,
): Promise<OpenLoopResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { url, paths, rate, seconds } });
    worker.once('message', (result: OpenLoopResult) => {
      resolve(result);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function run({ url, paths, rate, seconds }: Job): Promise<OpenLoopResult> {
  const target = new URL(url);
  // Enough sockets that a request never waits for one on this side.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const total = Math.round(rate * seconds);
  const interval = 1000 / rate;
  const latencies: number[] = [];
  let errors = 0;
  let finished = 0;
  let allDone: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    allDone = resolve;
  });
  const settle = (from: number, ok: boolean) => {
    latencies.push(performance.now() - from);
    if (!ok) errors++;
    if (++finished === total) allDone();
  };
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait >= 1) await sleep(wait);
    // From when it was due, or from when it went if that was earlier (the timer's 1 ms grain).
    const from = Math.min(due, performance.now());
    const request = http.get(
      { agent, host: target.hostname, port: target.port, path: paths[i % paths.length] },
      (res) => {
        res.resume();
        res.once('end', () => settle(from, res.statusCode === 200));
      },
    );
    request.once('error', () => settle(from, false));
  }
  await done;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)];
  return { sent: total, p50: at(0.5), p99: at(0.99), max: latencies[latencies.length - 1], errors };
}

if (!isMainThread) run(workerData as Job).then((result) => parentPort?.postMessage(result));
