// The matchmaking benchmark's players, in a worker thread so that their socket work does not share
// the server's core (real players sit on other machines). workerData: {url, users: [{id, key}],
// spreadMs, limitMs}. Every player connects and authenticates first (not timed); then player i
// sends its `join` at i × spreadMs / N (all within spreadMs), accepts its accept phase the moment
// PRIVATE_QUEUE_READY arrives, and the clock stops per match at the last of its players'
// PRIVATE_MATCH_START. Posts {type: 'begin'} just before the first join and, at the end,
// {type: 'done', joinSent, phases, matches, errors, elapsed, received} (times in ms from the first join).
import { parentPort, workerData } from 'node:worker_threads';
import { io } from 'socket.io-client';

const { url, users, spreadMs, limitMs } = workerData;
const groups = Math.floor(users.length / 10);

const sockets = [];
for (let i = 0; i < users.length; i += 50) {
  const batch = await Promise.all(
    users.slice(i, i + 50).map(
      (user) =>
        new Promise((resolve, reject) => {
          const s = io(url, { path: '/socket', transports: ['websocket'], forceNew: true });
          s.once('connect_error', reject);
          s.once('authenticated', () => resolve(s));
          s.once('connect', () => s.emit('authenticate', { key: user.key }));
        }),
    ),
  );
  sockets.push(...batch);
}

let begin = 0;
const now = () => performance.now() - begin;
const joinSent = new Map(); // userId → ms
const phases = new Map(); // phase key (sorted ids) → {players, lastReady}
const matches = new Map(); // matchId → {players, lastStart}
const errors = [];
const received = {}; // event name → frames the players received from the first join to the end
let finish;
const finished = new Promise((resolve) => {
  finish = resolve;
});

sockets.forEach((s, i) => {
  const { id } = users[i];
  s.onAny((name) => {
    if (begin) received[name] = (received[name] ?? 0) + 1;
  });
  s.on('PRIVATE_QUEUE_READY', (payload) => {
    const t = now();
    const ids = payload.players.map((p) => p.userId).sort();
    const key = ids.join(',');
    const phase = phases.get(key) ?? { players: ids, lastReady: 0, arrived: 0 };
    phase.lastReady = Math.max(phase.lastReady, t);
    phase.arrived++;
    phases.set(key, phase);
    s.emitWithAck('queue-message', { event: 'ready' }).then(
      (ack) => {
        if (!ack?.ok) errors.push(`ready ${id}: ${ack?.msg}`);
      },
      (err) => errors.push(`ready ${id}: ${err.message}`),
    );
  });
  s.on('PRIVATE_MATCH_START', ({ matchId }) => {
    const t = now();
    const m = matches.get(matchId) ?? { players: 0, lastStart: 0 };
    m.players++;
    m.lastStart = Math.max(m.lastStart, t);
    matches.set(matchId, m);
    if ([...matches.values()].filter((x) => x.players === 10).length >= groups) finish();
  });
});

parentPort.postMessage({ type: 'begin' });
begin = performance.now();
const limit = setTimeout(finish, limitMs);
sockets.forEach((s, i) => {
  const at = (i * spreadMs) / sockets.length;
  setTimeout(() => {
    joinSent.set(users[i].id, now());
    s.emitWithAck('queue-message', { event: 'join' }).then(
      (ack) => {
        if (!ack?.ok) errors.push(`join ${users[i].id}: ${ack?.msg}`);
      },
      (err) => errors.push(`join ${users[i].id}: ${err.message}`),
    );
  }, at);
});
await finished;
clearTimeout(limit);
const elapsed = now();
// The players stay connected until the server has finished what the matches started (the main
// thread counts its statements meanwhile); it then says `close`.
parentPort.once('message', () => {
  for (const s of sockets) s.disconnect();
  parentPort.postMessage({ type: 'closed' });
});
parentPort.postMessage({
  type: 'done',
  joinSent: Object.fromEntries(joinSent),
  phases: [...phases.values()],
  matches: [...matches.entries()].map(([matchId, m]) => ({ matchId, ...m })),
  errors,
  elapsed,
  received,
});
