/**
 * Hardening headers on every answer (helmet, worked out once, and our additions): the CSP fit for the web
 * app, nosniff, no referrer, no framing, the Permissions-Policy, HSTS only for an https
 * PUBLIC_URL; routes with their own policy (the Steam popup, Matrix media) keep it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import helmet from 'helmet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpAndConfirm, type TestApp, testConfig } from '../test/helpers';
import { helmetOptions, PERMISSIONS_POLICY, securityHeaders } from './web';

const webDist = path.join(os.tmpdir(), `openpug-webdist-headers-${process.pid}`);

/** The CSP as a map of directive → sources. */
function csp(res: LightMyRequestResponse): Map<string, string[]> {
  const header = res.headers['content-security-policy'];
  expect(typeof header).toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name, sources]),
  );
}

function expectHardened(res: LightMyRequestResponse, label: string): void {
  expect(res.headers['x-content-type-options'], label).toBe('nosniff');
  expect(res.headers['referrer-policy'], label).toBe('no-referrer');
  expect(res.headers['x-frame-options'], label).toBe('DENY');
  expect(res.headers['permissions-policy'], label).toContain('microphone=(self)');
  expect(res.headers['permissions-policy'], label).toContain('camera=()');
  const policy = csp(res);
  expect(policy.get('frame-ancestors'), label).toEqual(["'none'"]);
  expect(policy.get('script-src'), label).toEqual(["'self'"]);
  expect(policy.get('object-src'), label).toEqual(["'none'"]);
  expect(policy.get('img-src'), label).toEqual(expect.arrayContaining(["'self'", 'data:', 'blob:']));
  expect(policy.get('media-src'), label).toEqual(expect.arrayContaining(["'self'", 'blob:', 'data:']));
  expect(policy.get('style-src'), label).toEqual(["'self'", "'unsafe-inline'"]);
}

describe('security headers over http', () => {
  let t: TestApp;
  beforeAll(async () => {
    mkdirSync(path.join(webDist, 'assets'), { recursive: true });
    writeFileSync(
      path.join(webDist, 'index.html'),
      '<!doctype html><title>openpug</title><script type="module" src="/assets/app-abc123.js"></script>',
    );
    writeFileSync(path.join(webDist, 'assets', 'app-abc123.js'), 'console.log(1)');
    t = await createTestApp({ webDist, env: { PUBLIC_URL: 'http://pug.test:3000' } });
  });
  afterAll(() => t.close());

  it('harden the web app at /, its assets, an API route and an API error', async () => {
    const page = await t.app.inject({ url: '/', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>openpug</title>');
    const asset = await t.app.inject({ url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    const api = await t.app.inject({ url: '/api/health' });
    expect(api.statusCode).toBe(200);
    const refused = await t.app.inject({ url: '/api/profile' });
    expect(refused.statusCode).toBe(401);
    for (const [label, res] of [
      ['/', page],
      ['asset', asset],
      ['/api/health', api],
      ['401', refused],
    ] as const) {
      expectHardened(res, label);
      expect(res.headers['strict-transport-security'], label).toBeUndefined();
      expect(csp(res).has('upgrade-insecure-requests'), label).toBe(false);
    }
    expect(csp(page).get('connect-src')).toEqual(
      expect.arrayContaining(["'self'", 'ws://pug.test:3000', 'http://pug.test:3000']),
    );
  });

  it('the Steam popup page keeps its own nonce policy', async () => {
    const res = await t.app.inject({ url: '/api/steam/return' });
    expect(res.headers['content-type']).toMatch(/text\/html/);
    const policy = csp(res);
    const nonce = policy.get('script-src')?.[0];
    expect(nonce).toMatch(/^'nonce-/);
    expect(res.body).toContain(`nonce="${nonce?.slice(7, -1)}"`);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('Matrix media still download, with their own sandbox policy, from any origin', async () => {
    const signup = await signUpAndConfirm(t.app, {
      name: 'Media',
      email: 'media@example.test',
      password: 'secret1',
    });
    const { accessToken } = signup.matrix as { accessToken: string };
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
      'base64',
    );
    const up = await t.app.inject({
      method: 'POST',
      url: '/_matrix/media/v3/upload?filename=dot.png',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'image/png' },
      payload: png,
    });
    expect(up.statusCode).toBe(200);
    const [server, mediaId] = String(up.json().content_uri).replace('mxc://', '').split('/');
    // Authenticated media only, as Synapse: the legacy path answers 404 even with a token, and
    // the authenticated one refuses a request without one.
    for (const headers of [{ authorization: `Bearer ${accessToken}` }, {}]) {
      const legacy = await t.app.inject({ url: `/_matrix/media/v3/download/${server}/${mediaId}`, headers });
      expect(legacy.statusCode).toBe(404);
      expect(legacy.json().errcode).toBe('M_NOT_FOUND');
    }
    const anonymous = await t.app.inject({ url: `/_matrix/client/v1/media/download/${server}/${mediaId}` });
    expect(anonymous.statusCode).toBe(401);
    for (const url of [`/_matrix/client/v1/media/download/${server}/${mediaId}`]) {
      const res = await t.app.inject({ url, headers: { authorization: `Bearer ${accessToken}` } });
      expect(res.statusCode, url).toBe(200);
      expect(res.rawPayload.equals(png), url).toBe(true);
      expect(res.headers['content-type'], url).toBe('image/png');
      expect(res.headers['content-security-policy'], url).toBe(
        "sandbox; default-src 'none'; media-src 'self'",
      );
      expect(res.headers['cross-origin-resource-policy'], url).toBe('cross-origin');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    }
    const thumb = await t.app.inject({
      url: `/_matrix/client/v1/media/thumbnail/${server}/${mediaId}?width=32&height=32`,
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['cross-origin-resource-policy']).toBe('cross-origin');
    // The homeserver's CORS stays as it was.
    const versions = await t.app.inject({ url: '/_matrix/client/versions' });
    expect(versions.statusCode).toBe(200);
    expect(versions.headers['access-control-allow-origin']).toBe('*');
  });
});

describe('security headers over https', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: { PUBLIC_URL: 'https://pug.example', MATRIX_HOMESERVER_URL: 'https://matrix.pug.example' },
    });
  });
  afterAll(() => t.close());

  it('adds HSTS and upgrade-insecure-requests, and lets the app reach wss and the Matrix server', async () => {
    const res = await t.app.inject({ url: '/api/health' });
    expectHardened(res, 'https');
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
    const policy = csp(res);
    expect(policy.get('upgrade-insecure-requests')).toEqual([]);
    expect(policy.get('connect-src')).toEqual(
      expect.arrayContaining(["'self'", 'wss://pug.example', 'https://matrix.pug.example']),
    );
  });
});

describe('security headers worked out once', () => {
  it.each([
    ['http', 'http://localhost:3000'],
    ['https', 'https://pug.example'],
  ])('are what helmet sets on a real response (%s), plus the Permissions-Policy', (_label, publicUrl) => {
    const config = testConfig({ PUBLIC_URL: publicUrl });
    const res = new ServerResponse(new IncomingMessage(new Socket()));
    let failure: unknown = 'not called';
    helmet(helmetOptions(config))(res.req, res, (err?: unknown) => {
      failure = err;
    });
    expect(failure).toBeUndefined();
    const { 'permissions-policy': permissions, ...fromHelmet } = securityHeaders(config);
    expect(fromHelmet).toEqual(res.getHeaders());
    expect(Object.keys(fromHelmet).length).toBeGreaterThanOrEqual(10);
    expect(permissions).toBe(PERMISSIONS_POLICY);
  });
});
