import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/helpers';

const webDist = path.join(os.tmpdir(), `openpug-webdist-preloads-${process.pid}`);
const INDEX =
  '<!doctype html><html><head><script type="module" src="/assets/index.js"></script></head><body></body></html>';

describe('index.html names the first files of the requested route', () => {
  let t: TestApp;
  const page = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ url, headers: { accept: 'text/html', ...headers } });
  beforeAll(async () => {
    mkdirSync(path.join(webDist, 'assets'), { recursive: true });
    writeFileSync(path.join(webDist, 'index.html'), INDEX);
    writeFileSync(
      path.join(webDist, 'preloads.json'),
      JSON.stringify({
        routes: [
          { path: '/', files: ['/assets/landing.js'] },
          {
            path: '/user/:userId/matches',
            files: ['/assets/user.js', '/assets/user.css'],
            firstRequest: '/users/:userId',
          },
          { path: '*', files: ['/assets/not-found.js'] },
        ],
        locales: { en: ['/assets/en.js'], de: ['/assets/de.js'] },
      }),
    );
    t = await createTestApp({ webDist });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it("puts the route's scripts and stylesheets and the language's texts before </head>", async () => {
    const res = await page('/user/4f9c/matches', { 'accept-language': 'de-DE,de;q=0.9,en;q=0.8' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.vary).toContain('Accept-Language');
    expect(res.body).toContain('<link rel="modulepreload" crossorigin href="/assets/user.js">');
    expect(res.body).toContain('<link rel="preload" as="style" crossorigin href="/assets/user.css">');
    expect(res.body).toContain('href="/assets/de.js"');
    expect(res.body).not.toContain('/assets/en.js');
    expect(res.body.indexOf('/assets/user.js')).toBeLessThan(res.body.indexOf('</head>'));
  });

  it('matches whole paths, takes English for other languages and falls back to the catch-all route', async () => {
    const landing = await page('/', { 'accept-language': 'fr-FR' });
    expect(landing.body).toContain('/assets/landing.js');
    expect(landing.body).toContain('/assets/en.js');
    expect(landing.body).not.toContain('/assets/user.js');
    const other = await page('/user/4f9c/matches/extra');
    expect(other.body).toContain('/assets/not-found.js');
    expect(other.body).not.toContain('/assets/user.js');
  });

  it('answers 304 to a tab that has the same page, and keeps API paths JSON', async () => {
    const first = await page('/');
    const again = await page('/', { 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    const api = await page('/api/nothing-here');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ errors: { msg: 'NOT_FOUND' } });
  });

  it("names the screen's first API request for this path, escaped, ahead of the scripts", async () => {
    const res = await page('/user/4f9c/matches');
    expect(res.body).toContain(
      '<link rel="preload" as="fetch" crossorigin="anonymous" href="/api/users/4f9c">',
    );
    expect(res.body.indexOf('/api/users/4f9c')).toBeLessThan(res.body.indexOf('/assets/index.js'));
    // Another player: another link, another ETag.
    const other = await page('/user/77aa/matches');
    expect(other.body).toContain('href="/api/users/77aa"');
    expect(other.body).not.toContain('/api/users/4f9c');
    expect(other.headers.etag).not.toBe(res.headers.etag);
    // A quote or a tag in the address reaches the page encoded, never as markup.
    const hostile = await page('/user/%22%3E%3Cscript%3Ex/matches');
    expect(hostile.body).toContain('href="/api/users/%22%3E%3Cscript%3Ex"');
    expect(hostile.body).not.toContain('"><script>');
    // An undecodable address never gets this far: the server refuses it first.
    const broken = await page('/user/%E0%A4%A/matches');
    expect(broken.statusCode).toBe(400);
    expect(broken.body).not.toContain('as="fetch"');
  });
});
