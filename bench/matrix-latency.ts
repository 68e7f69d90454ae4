// biome-ignore-all lint/suspicious/noExplicitAny: Matrix JSON answers are read loosely.
/**
 * Matrix latency: time from one client's send (PUT /rooms/…/send) to the event arriving in the
 * other client's long-polling /sync, 200 messages one after another (10 warm-up messages not
 * counted), on the embedded homeserver (the server started from source with a fresh PGlite data
 * directory, as `npm start` runs it) and on Synapse (scripts/synapse.sh, SQLite) in the same run.
 * Target (issue 6): embedded p99 no worse than Synapse's.
 *
 *   node --import tsx bench/matrix-latency.ts          (or: npm run bench -- matrix-latency)
 *
 * Uses SYNAPSE_URL + SYNAPSE_SHARED_SECRET when set, else runs scripts/synapse.sh; without
 * Synapse it reports the embedded figures only.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const MESSAGES = 200;
const WARMUP = 10;

interface Server {
  name: string;
  url: string;
  secret: string;
  stop(): Promise<void>;
}

async function req(url: string, method: string, body?: unknown, token?: string) {
  const res = await fetch(url, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as Record<string, any>;
  if (res.status >= 400) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function register(s: Server, prefix: string) {
  const username = `${prefix}${randomBytes(4).toString('hex')}`;
  const password = randomBytes(12).toString('hex');
  const { nonce } = await req(`${s.url}/_synapse/admin/v1/register`, 'GET');
  const mac = createHmac('sha1', s.secret)
    .update(`${nonce}\0${username}\0${password}\0notadmin`)
    .digest('hex');
  const r = await req(`${s.url}/_synapse/admin/v1/register`, 'POST', {
    nonce,
    username,
    password,
    admin: false,
    mac,
  });
  return { userId: r.user_id as string, token: r.access_token as string };
}

async function startEmbedded(): Promise<Server> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'openpug-matrix-bench-'));
  const port = 3900 + Math.floor(Math.random() * 90);
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      MATRIX_HOMESERVER_URL: '',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const t0 = Date.now();
  for (;;) {
    if (Date.now() - t0 > 90_000) throw new Error('embedded server did not start');
    try {
      if ((await fetch(`${url}/_matrix/client/versions`)).ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    name: 'embedded',
    url,
    secret: readFileSync(path.join(dataDir, 'matrix_shared_secret'), 'utf8').trim(),
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.on('exit', r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function synapse(): Server | null {
  let url = process.env.SYNAPSE_URL;
  let secret = process.env.SYNAPSE_SHARED_SECRET;
  if (!url || !secret) {
    try {
      const out = execFileSync('bash', [path.join(root, 'scripts/synapse.sh')], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      url = /SYNAPSE_URL=(\S+)/.exec(out)?.[1];
      secret = /SYNAPSE_SHARED_SECRET=(\S+)/.exec(out)?.[1];
    } catch {
      return null;
    }
  }
  return url && secret ? { name: 'synapse', url, secret, stop: async () => {} } : null;
}

async function measure(s: Server): Promise<number[]> {
  const a = await register(s, 'bencha');
  const b = await register(s, 'benchb');
  const { room_id } = await req(
    `${s.url}/_matrix/client/v3/createRoom`,
    'POST',
    { preset: 'private_chat', invite: [b.userId] },
    a.token,
  );
  const roomPath = `${s.url}/_matrix/client/v3/rooms/${encodeURIComponent(room_id)}`;
  await req(`${roomPath}/join`, 'POST', {}, b.token);

  // B's sync loop: records when each body first arrives.
  const arrived = new Map<string, number>();
  const waiters = new Map<string, () => void>();
  let running = true;
  let since = (await req(`${s.url}/_matrix/client/v3/sync?timeout=0`, 'GET', undefined, b.token))
    .next_batch as string;
  const loop = (async () => {
    while (running) {
      const r = await req(
        `${s.url}/_matrix/client/v3/sync?timeout=5000&since=${encodeURIComponent(since)}`,
        'GET',
        undefined,
        b.token,
      );
      const now = performance.now();
      since = r.next_batch;
      for (const e of r.rooms?.join?.[room_id]?.timeline?.events ?? []) {
        const body = e.content?.body as string | undefined;
        if (body && !arrived.has(body)) {
          arrived.set(body, now);
          waiters.get(body)?.();
        }
      }
    }
  })();

  const latencies: number[] = [];
  for (let i = 0; i < MESSAGES + WARMUP; i++) {
    const body = `bench ${i} ${randomBytes(3).toString('hex')}`;
    const delivered = new Promise<void>((resolve) => waiters.set(body, resolve));
    const t0 = performance.now();
    await req(`${roomPath}/send/m.room.message/b${i}`, 'PUT', { msgtype: 'm.text', body }, a.token);
    await delivered;
    if (i >= WARMUP) latencies.push(arrived.get(body)! - t0);
  }
  running = false;
  // Ends the last long-poll.
  await req(`${roomPath}/send/m.room.message/end`, 'PUT', { msgtype: 'm.text', body: 'end' }, a.token);
  await loop;
  return latencies;
}

const pct = (xs: number[], p: number) => {
  const sorted = [...xs].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

const results: { name: string; p50: number; p99: number; mean: number }[] = [];
const servers: (() => Promise<Server | null>)[] = [startEmbedded, async () => synapse()];
for (const start of servers) {
  const s = await start();
  if (!s) {
    console.log('Synapse not available: embedded figures only');
    continue;
  }
  try {
    const xs = await measure(s);
    results.push({
      name: s.name,
      p50: pct(xs, 50),
      p99: pct(xs, 99),
      mean: xs.reduce((x, y) => x + y, 0) / xs.length,
    });
  } finally {
    await s.stop();
  }
}
console.log(`send → delivered to the other client's /sync, ${MESSAGES} messages (after ${WARMUP} warm-up)`);
for (const r of results) {
  console.log(
    `  ${r.name.padEnd(9)} p50 ${r.p50.toFixed(1)} ms   p99 ${r.p99.toFixed(1)} ms   mean ${r.mean.toFixed(1)} ms`,
  );
}
const [emb, syn] = [results.find((r) => r.name === 'embedded'), results.find((r) => r.name === 'synapse')];
if (emb && syn) {
  const ok = emb.p99 <= syn.p99;
  console.log(`target embedded p99 ≤ Synapse p99: ${ok ? 'met' : 'NOT met'}`);
  if (!ok) process.exitCode = 1;
}
