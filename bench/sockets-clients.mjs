// One client process of the sockets benchmark (bench/sockets-bench.ts): holds many Socket.IO
// clients (websocket, loopback), each signed in the way the web signs in (`authenticate {key}`
// on every connect, also after a reconnect; `server-draining` → drop the transport and
// reconnect). Driven over IPC:
//
//   {cmd: 'connect', url, tokens, concurrency} → {connected, failed}   all signed in (or failed)
//   {cmd: 'restart', t0}         the server is about to restart: disconnects are expected from now
//                                on, and every socket's next `authenticated` is timed from t0
//   {cmd: 'report'}              → {authed, total, unexpected, reasons, backMs[]}
//   {cmd: 'close'}               → {} every socket closed
import { io } from 'socket.io-client';

const sockets = [];
const state = { restartAt: 0, unexpected: 0, reasons: {}, unauthorized: 0 };

function open(url, token) {
  return new Promise((resolve) => {
    const s = io(url, {
      path: '/socket',
      transports: ['websocket'],
      forceNew: true,
      // socket.io-client's defaults, as in the web (1 s doubling to 5 s, ±50 %).
      reconnection: true,
    });
    const entry = { s, authed: false, backMs: null };
    let settled = false;
    const done = (ok) => {
      if (settled) return;
      settled = true;
      resolve(ok ? entry : null);
    };
    s.on('connect', () => s.emit('authenticate', { key: token }));
    s.on('authenticated', () => {
      entry.authed = true;
      if (state.restartAt && entry.backMs === null) entry.backMs = Date.now() - state.restartAt;
      done(true);
    });
    s.on('unauthorized', () => {
      state.unauthorized++;
      done(false);
    });
    s.on('server-draining', () => s.io.engine?.close());
    s.on('disconnect', (reason) => {
      entry.authed = false;
      if (state.restartAt) return;
      state.unexpected++;
      state.reasons[reason] = (state.reasons[reason] ?? 0) + 1;
    });
    // The first connection: give up after 120 s (a loaded machine is slow, not broken).
    setTimeout(() => {
      if (settled) return;
      s.close();
      done(false);
    }, 120_000).unref();
  });
}

process.on('message', async (msg) => {
  const reply = (body) => process.send({ id: msg.id, ...body });
  if (msg.cmd === 'connect') {
    let next = 0;
    let connected = 0;
    let failed = 0;
    const worker = async () => {
      while (next < msg.tokens.length) {
        const entry = await open(msg.url, msg.tokens[next++]);
        if (entry) {
          sockets.push(entry);
          connected++;
        } else failed++;
      }
    };
    await Promise.all(Array.from({ length: msg.concurrency }, worker));
    reply({ connected, failed, unauthorized: state.unauthorized });
  } else if (msg.cmd === 'restart') {
    state.restartAt = msg.t0;
    for (const entry of sockets) entry.backMs = null;
    reply({});
  } else if (msg.cmd === 'report') {
    reply({
      total: sockets.length,
      authed: sockets.filter((e) => e.authed).length,
      unexpected: state.unexpected,
      reasons: state.reasons,
      unauthorized: state.unauthorized,
      backMs: msg.withTimes ? sockets.map((e) => e.backMs) : undefined,
    });
  } else if (msg.cmd === 'close') {
    state.restartAt = Date.now(); // closing on purpose: not unexpected
    for (const { s } of sockets) s.close();
    sockets.length = 0;
    reply({});
  }
});
