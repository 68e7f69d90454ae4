/**
 * Delivery on the wire: the build's precompressed assets go out with Content-Encoding and Vary to
 * browsers that accept them (immutable when hashed), index.html and the routes' pages are
 * revalidated and compressed, API answers of 1 KB and more are compressed on the fly, small ones
 * are not.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/helpers';

const webDist = path.join(os.tmpdir(), `openpug-webdist-delivery-${process.pid}`);
const script = `export const app = ${JSON.stringify('x'.repeat(50))};\n`.repeat(200);
const html = `<!doctype html><head><title>openpug</title>${'<meta name="x" content="y">'.repeat(100)}</head>`;

/** Writes a file with its `.br` and `.gz` beside it, as the web build does. */
function precompressed(file: string, text: string): void {
  writeFileSync(file, text);
  writeFileSync(`${file}.br`, brotliCompressSync(text));
  writeFileSync(`${file}.gz`, gzipSync(text));
}

let t: TestApp;
beforeAll(async () => {
  mkdirSync(path.join(webDist, 'assets'), { recursive: true });
  precompressed(path.join(webDist, 'index.html'), html);
  precompressed(path.join(webDist, 'assets', 'app-abc123.js'), script);
  // One route with its first files (web-preloads.ts): its page is made per request, not a file.
  const preloads = {
    routes: [{ path: '/user/:userId', files: ['/assets/app-abc123.js'], firstRequest: '/users/:userId' }],
    locales: { en: [], de: [] },
  };
  writeFileSync(path.join(webDist, 'preloads.json'), JSON.stringify(preloads));
  t = await createTestApp({ webDist });
});
afterAll(() => t?.close());

const get = (url: string, encoding: string | undefined, accept = '*/*') =>
  t.app.inject({
    url,
    headers: { accept, ...(encoding === undefined ? {} : { 'accept-encoding': encoding }) },
  });

describe('delivery', () => {
  it('sends a hashed asset precompressed (brotli, else gzip, else plain), immutable, varying on the encoding', async () => {
    const br = await get('/assets/app-abc123.js', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['content-type']).toContain('javascript');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    expect(br.rawPayload.length).toBeLessThan(script.length / 10);

    const gz = await get('/assets/app-abc123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);

    const plain = await get('/assets/app-abc123.js', undefined);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('revalidates index.html on every visit and sends it compressed too', async () => {
    const res = await get('/leaderboard', 'br', 'text/html');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(html);
  });

  it("sends a route's page with its first files compressed too (brotli, else gzip, else plain)", async () => {
    const br = await get('/user/u1', 'gzip, br', 'text/html');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toBe('Accept-Language, Accept-Encoding');
    expect(br.headers['cache-control']).toBe('no-cache');
    const page = brotliDecompressSync(br.rawPayload).toString();
    expect(page).toContain('<link rel="modulepreload" crossorigin href="/assets/app-abc123.js">');
    expect(page).toContain('href="/api/users/u1"');
    expect(br.rawPayload.length).toBeLessThan(page.length / 4);

    const gz = await get('/user/u1', 'gzip', 'text/html');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(page);

    const plain = await get('/user/u1', undefined, 'text/html');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(page);
  });

  it('compresses API answers of 1 KB and more, not the small ones', async () => {
    const doc = await get('/api/docs/json', 'br');
    expect(doc.statusCode).toBe(200);
    expect(doc.headers['content-encoding']).toBe('br');
    const spec = JSON.parse(brotliDecompressSync(doc.rawPayload).toString());
    expect(spec.openapi).toMatch(/^3\./);
    const gz = await get('/api/docs/json', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    const small = await get('/api/health', 'br');
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toMatchObject({ status: 'ok' });
  });
});
