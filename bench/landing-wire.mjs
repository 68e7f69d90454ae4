// Bytes on the wire for the landing route, fetched through the built server as a browser would:
// `/` with `Accept-Encoding: br, gzip`, then every module script and modulepreload it names, then
// the landing screen's lazily loaded chunks that the entry imports statically (from the Vite
// manifest). Reported: JavaScript on the wire (what the issue's ≤ 150 KB target counts), the same
// files uncompressed (the 743 KB a browser received before compression reached the wire) and
// the HTML. Run after `npm run build`.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const main = path.join(root, 'apps/server/dist/main.js');
const dist = path.join(root, 'apps/web/dist');
const port = 3900 + Math.floor(Math.random() * 90);
const base = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'openpug-wire-'));

const child = spawn(process.execPath, [main], {
  env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
  stdio: 'ignore',
});

/** Wire size (compressed body as sent) and decoded size of one URL. */
async function sizes(url, encoding, accept = '*/*') {
  const res = await fetch(`${base}${url}`, { headers: { 'accept-encoding': encoding, accept } });
  const decoded = (await res.arrayBuffer()).byteLength;
  // fetch decodes the body; the header says what went over the wire.
  const wire = Number(res.headers.get('content-length') ?? decoded);
  return { wire, decoded, encoding: res.headers.get('content-encoding') ?? 'identity' };
}

try {
  const t0 = Date.now();
  for (;;) {
    if (Date.now() - t0 > 60_000) throw new Error('server did not become healthy in 60 s');
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 50));
  }
  const htmlRes = await fetch(`${base}/`, {
    headers: { accept: 'text/html', 'accept-encoding': 'identity' },
  });
  const html = await htmlRes.text();
  const scripts = new Set(
    [...html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="([^"]+\.js)"/g)].map(
      (m) => m[1],
    ),
  );
  // The entry's static imports (the landing screen's code) as the browser will request them.
  const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
  const entry = Object.values(manifest).find((c) => c.isEntry);
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || scripts.has(`/${chunk.file}`)) return;
    scripts.add(`/${chunk.file}`);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  for (const dep of entry.imports ?? []) visit(dep);
  scripts.add(`/${entry.file}`);

  const rows = [];
  let js = { br: 0, gzip: 0, identity: 0 };
  for (const url of scripts) {
    const br = await sizes(url, 'br, gzip');
    const gz = await sizes(url, 'gzip');
    const plain = await sizes(url, 'identity');
    js = { br: js.br + br.wire, gzip: js.gzip + gz.wire, identity: js.identity + plain.wire };
    rows.push(
      `${url}  ${(br.wire / 1024).toFixed(1)} KB ${br.encoding} (${(plain.wire / 1024).toFixed(1)} KB plain)`,
    );
  }
  const page = await sizes('/', 'br, gzip', 'text/html');
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  console.log(rows.join('\n'));
  console.log(`landing HTML on the wire: ${kb(page.wire)} (${page.encoding}, ${kb(page.decoded)} decoded)`);
  console.log(
    `landing JavaScript on the wire: ${kb(js.br)} brotli, ${kb(js.gzip)} gzip, ${kb(js.identity)} uncompressed — target ≤ 150 KB`,
  );
  if (js.br > 150 * 1024) process.exitCode = 1;
} finally {
  child.kill('SIGTERM');
  await new Promise((r) => child.on('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
