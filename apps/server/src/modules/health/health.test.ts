import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../../../test/helpers';

describe('foundation HTTP surface', () => {
  let t: TestApp;
  const webDist = path.join(os.tmpdir(), `openpug-webdist-${process.pid}`);

  beforeAll(async () => {
    mkdirSync(path.join(webDist, 'assets'), { recursive: true });
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>openpug</title>');
    writeFileSync(path.join(webDist, 'assets', 'app-abc123.js'), 'console.log(1)');
    t = await createTestApp({ webDist });
    // A typed route to exercise validation; the real modules use the same compilers.
    t.app
      .withTypeProvider<ZodTypeProvider>()
      .post(
        '/api/_test/echo',
        { schema: { body: z.object({ count: z.number().int(), email: z.email('EMAIL_IS_NOT_VALID') }) } },
        async (req) => req.body,
      );
  });
  afterAll(() => t.close());

  it('reports health with the database', async () => {
    const res = await t.app.inject('/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', database: { ok: true }, version: '1.2.3' });
    expect(['pglite', 'postgres']).toContain(res.json().database.kind);
  });

  it('serves the build version, uncached', async () => {
    const res = await t.app.inject('/version.json');
    expect(res.json()).toEqual({ version: '1.2.3' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers unknown API paths with NOT_FOUND as JSON, even when HTML is accepted', async () => {
    for (const url of ['/api/nope', '/api/users/x/y/z', '/api']) {
      const res = await t.app.inject({ url, headers: { accept: 'text/html' } });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ errors: { msg: 'NOT_FOUND' } });
    }
    const del = await t.app.inject({ method: 'DELETE', url: '/api/health' });
    expect(del.statusCode).toBe(404);
    expect(del.json()).toEqual({ errors: { msg: 'NOT_FOUND' } });
  });

  it('refuses malformed JSON with a key, not a 500', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/_test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"count": 1,',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ errors: { msg: 'MALFORMED_JSON' } });
    expect(res.body).not.toContain('at ');
  });

  it('refuses an over-long or undecodable path parameter with a key, before routing', async () => {
    const long = await t.app.inject({ url: `/api/match/${'x'.repeat(300)}` });
    expect([long.statusCode, long.json()]).toEqual([414, { errors: { msg: 'INVALID_INPUT' } }]);
    const undecodable = await t.app.inject({ url: '/api/match/%E0%A4%A' });
    expect([undecodable.statusCode, undecodable.json()]).toEqual([400, { errors: { msg: 'INVALID_INPUT' } }]);
  });

  it('refuses wrong types with 422 and the first failing field key', async () => {
    const wrongType = await t.app.inject({
      method: 'POST',
      url: '/api/_test/echo',
      payload: { count: 'three', email: 'a@b.de' },
    });
    expect(wrongType.statusCode).toBe(422);
    expect(wrongType.json()).toEqual({ errors: { msg: 'INVALID_INPUT' } });
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/_test/echo',
      payload: { email: 'a@b.de' },
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toEqual({ errors: { msg: 'MISSING' } });
    const badEmail = await t.app.inject({
      method: 'POST',
      url: '/api/_test/echo',
      payload: { count: 1, email: 'nope' },
    });
    expect(badEmail.json()).toEqual({ errors: { msg: 'EMAIL_IS_NOT_VALID' } });
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/_test/echo',
      payload: { count: 1, email: 'a@b.de' },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('refuses oversized bodies with PAYLOAD_TOO_LARGE', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/_test/echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ count: 1, email: 'a@b.de', pad: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ errors: { msg: 'PAYLOAD_TOO_LARGE' } });
  });

  it('serves the SPA with history fallback and caches hashed assets', async () => {
    const page = await t.app.inject({ url: '/user/123/matches', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>openpug</title>');
    const asset = await t.app.inject('/assets/app-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const missingAsset = await t.app.inject('/assets/missing.js');
    expect(missingAsset.statusCode).toBe(404);
  });

  it('publishes OpenAPI documentation generated from the route schemas', async () => {
    const res = await t.app.inject('/api/docs/json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/api/health']).toBeDefined();
    const ui = await t.app.inject('/api/docs/');
    expect(ui.statusCode).toBe(200);
  });
});
