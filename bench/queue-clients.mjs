// The queue benchmark's 1,000 players, run in a worker thread so that parsing every broadcast on
// the client side does not share the server's core (real players sit on other machines). Gets
// {url, tokens, groups, concurrency} as workerData; posts {latencies, total} when done.
import { parentPort, workerData } from 'node:worker_threads';
import { io } from 'socket.io-client';

const { url, tokens, groups, concurrency } = workerData;

const sockets = [];
for (let i = 0; i < tokens.length; i += 50) {
  const batch = await Promise.all(
    tokens.slice(i, i + 50).map(
      (token) =>
        new Promise((resolve, reject) => {
          const s = io(url, { path: '/socket', transports: ['websocket'], forceNew: true });
          s.once('connect_error', reject);
          s.once('authenticated', () => resolve(s));
          s.once('connect', () => s.emit('authenticate', { key: token }));
        }),
    ),
  );
  sockets.push(...batch);
}

const once = (s, event) => new Promise((resolve) => s.once(event, () => resolve(performance.now())));
const latencies = [];
const runGroup = async (g) => {
  const group = sockets.slice(g * 10, g * 10 + 10);
  const ready = group.map((s) => once(s, 'PRIVATE_QUEUE_READY'));
  for (const s of group.slice(0, 9)) await s.emitWithAck('queue-message', { event: 'join' });
  const t0 = performance.now();
  const tenth = group[9].emitWithAck('queue-message', { event: 'join' });
  const arrivals = await Promise.all(ready);
  await tenth;
  latencies.push(Math.max(...arrivals) - t0);
  const started = group.map((s) => once(s, 'PRIVATE_MATCH_START'));
  await Promise.all(group.map((s) => s.emitWithAck('queue-message', { event: 'ready' })));
  await Promise.all(started);
};

const begin = performance.now();
let next = 0;
// Groups in flight at once join interleaved, so phases mix players of several groups: then only
// the total is meaningful.
await Promise.all(
  Array.from({ length: Math.max(1, concurrency) }, async () => {
    while (next < groups) await runGroup(next++);
  }),
);
const total = performance.now() - begin;
for (const s of sockets) s.disconnect();
parentPort.postMessage({ latencies, total });
