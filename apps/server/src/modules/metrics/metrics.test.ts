/**
 * GET /metrics: Prometheus text from loopback or with METRICS_TOKEN, else the 404 of an unknown
 * path; requests land in the histogram under their route pattern; job lag and notification
 * failures are reported.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { jobs } from '../../jobs/schema';
import { withRetries } from '../notify/deliver';
import { failureReason } from './registry';

const TOKEN = 'metrics-token-0123456789abcdef';

describe('GET /metrics', () => {
  let t: TestApp;
  let other: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_TOKEN: TOKEN, NOTIFY_RETRY_MS: '0', NOTIFY_ATTEMPTS: '2' } });
    // A second app in the same process: its own registry, no clash of metric names.
    other = await createTestApp();
  });
  afterAll(async () => {
    await other.close();
    await t.close();
  });

  const scrape = (app: TestApp, remoteAddress = '127.0.0.1', headers: Record<string, string> = {}) =>
    app.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });

  it('answers loopback with the process, Node and openpug metrics', async () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const res = await scrape(t, address);
      expect(res.statusCode, address).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    }
    const body = (await scrape(t)).body;
    for (const name of [
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'openpug_http_request_duration_seconds',
      'openpug_socket_connections',
      'openpug_queue_players',
      'openpug_matches',
      'openpug_job_lag_seconds',
      'openpug_notify_failures_total',
    ])
      expect(body, name).toMatch(new RegExp(`^# TYPE ${name} `, 'm'));
    expect(body).toMatch(/^openpug_matches\{status="active"\} 0$/m);
    expect(body).toMatch(/^openpug_queue_players 0$/m);
    expect(body).toMatch(/^# HELP openpug_queue_players .*deployment-wide/m);
    expect((await scrape(other)).statusCode).toBe(200);
  });

  it('is a 404 like any unknown path for a remote client without the token, 200 with it', async () => {
    const unknown = await t.app.inject({ method: 'GET', url: '/no-such-path', remoteAddress: '203.0.113.9' });
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong-token-wrong-token' },
      { authorization: TOKEN },
    ];
    for (const headers of attempts) {
      const res = await scrape(t, '203.0.113.9', headers);
      expect(res.statusCode).toBe(404);
      expect(res.body).toBe(unknown.body);
    }
    // A forged X-Forwarded-For from the internet does not make it loopback.
    expect((await scrape(t, '203.0.113.9', { 'x-forwarded-for': '127.0.0.1' })).statusCode).toBe(404);
    // Behind a loopback proxy the forwarded client's address counts.
    expect((await scrape(t, '127.0.0.1', { 'x-forwarded-for': '203.0.113.9' })).statusCode).toBe(404);
    const ok = await scrape(t, '203.0.113.9', { authorization: `Bearer ${TOKEN}` });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('openpug_queue_players');
    // Without METRICS_TOKEN configured no token opens it.
    expect((await scrape(other, '203.0.113.9', { authorization: `Bearer ${TOKEN}` })).statusCode).toBe(404);
  });

  it('times each request under its route pattern, never the raw URL', async () => {
    await t.app.inject({ method: 'GET', url: '/api/users/some-user-id-123' });
    await t.app.inject({ method: 'GET', url: '/api/health' });
    await t.app.inject({ method: 'GET', url: '/api/nothing-here-xyz' });
    const body = (await scrape(t)).body;
    expect(body).toMatch(
      /^openpug_http_request_duration_seconds_count\{method="GET",route="\/api\/health",status_code="200"\} [1-9]/m,
    );
    expect(body).toMatch(/route="\/api\/users\/:[A-Za-z]+"/);
    expect(body).toMatch(/route="unmatched",status_code="404"/);
    expect(body).not.toContain('some-user-id-123');
    expect(body).not.toContain('nothing-here-xyz');
  });

  it('reports how late the oldest overdue job is', async () => {
    const now = t.app.ctx.clock.now();
    await t.app.ctx.db
      .insert(jobs)
      .values({ id: 'metrics-test:1', kind: 'metrics-test', key: '1', dueAt: now - 90_000 });
    const body = (await scrape(t)).body;
    const lag = Number(/^openpug_job_lag_seconds (\S+)$/m.exec(body)?.[1]);
    expect(lag).toBeGreaterThanOrEqual(90);
    expect(lag).toBeLessThan(120);
    await t.app.ctx.db.delete(jobs);
  });

  it('counts notifications given up on by channel and reason', async () => {
    const failing = async () => {
      throw new Error('WhatsApp Cloud API answered 503: down');
    };
    expect(await withRetries(t.app.ctx, 'whatsapp user-1', failing)).toBe(false);
    const body = (await scrape(t)).body;
    expect(body).toMatch(/^openpug_notify_failures_total\{channel="whatsapp",reason="http_5xx"\} 1$/m);
  });

  it('classifies failures into a few bounded reasons', () => {
    expect(failureReason(new Error('push service answered 410'))).toBe('http_4xx');
    expect(failureReason(Object.assign(new Error('x'), { name: 'TimeoutError' }))).toBe('timeout');
    expect(failureReason(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }))).toBe('network');
    expect(failureReason(new Error('something odd'))).toBe('error');
  });
});
