// The socket-flood benchmark's clients, each role in its own worker thread so neither shares the
// server's event loop (bench/socket-flood-bench.ts). workerData: {role, url, token?, address,
// ...}; posts its figures when done.
//
// role 'probe': a signed-in player sends `join-social` for a friend (a database read, then an
//   ack) every `intervalMs` for `durationMs`, one at a time; posts {latencies}.
// role 'flood': emits a cheap event at `rate` per second for `durationMs` without waiting for
//   answers, signed in (`token`) or not; when the server disconnects it (persistent abuse) it
//   connects again at once and carries on; posts {sent, refused, disconnects, reconnects}.
import { parentPort, workerData } from 'node:worker_threads';
import { io } from 'socket.io-client';

const { role, url, token, address, durationMs } = workerData;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function connect() {
  return new Promise((resolve, reject) => {
    // X-Forwarded-For names the client (loopback is a trusted proxy), so the per-address budget
    // applies as it would to a remote client.
    const s = io(url, {
      path: '/socket',
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
      extraHeaders: { 'x-forwarded-for': address },
    });
    s.once('connect_error', reject);
    s.once('connect', () => {
      if (!token) return resolve(s);
      s.once('authenticated', () => resolve(s));
      s.emit('authenticate', { key: token });
    });
  });
}

if (role === 'probe') {
  const s = await connect();
  const latencies = [];
  const end = performance.now() + durationMs;
  while (performance.now() < end) {
    const t0 = performance.now();
    const answer = await s.timeout(10_000).emitWithAck('join-social', workerData.friendId);
    if (!answer?.ok) throw new Error(`probe refused: ${JSON.stringify(answer)}`);
    latencies.push(performance.now() - t0);
    await sleep(workerData.intervalMs);
  }
  s.disconnect();
  parentPort.postMessage({ latencies });
} else {
  const { rate, event, payload } = workerData;
  const stats = { sent: 0, refused: 0, disconnects: 0, reconnects: 0, refusedConnects: 0 };
  let socket = null;
  let connecting = null;
  const ensure = () => {
    if (socket?.connected) return socket;
    if (!connecting) {
      connecting = connect()
        .then((s) => {
          if (socket) stats.reconnects++;
          s.on('SOCKET_ERROR', () => stats.refused++);
          s.on('disconnect', () => stats.disconnects++);
          socket = s;
        })
        .catch(() => {
          // Shut out after an abuse disconnect: try again shortly, as a determined flooder would.
          stats.refusedConnects++;
          return sleep(50);
        })
        .finally(() => {
          connecting = null;
        });
    }
    return null;
  };
  const start = performance.now();
  const tickMs = 5;
  const perTick = Math.max(1, Math.round((rate * tickMs) / 1000));
  while (performance.now() - start < durationMs) {
    const s = ensure();
    if (s) {
      for (let i = 0; i < perTick && s.connected; i++) {
        s.emit(event, payload);
        stats.sent++;
      }
    }
    await sleep(tickMs);
  }
  socket?.disconnect();
  parentPort.postMessage(stats);
}
