/**
 * `GET /metrics`: Prometheus text format for this app instance (see registry.ts). Answered only
 * when the client's address (request.ip, after TRUST_PROXY) is loopback, or with
 * `Authorization: Bearer $METRICS_TOKEN`; anyone else gets the same 404 as an unknown path.
 *
 * `installMetrics` runs on the root instance before the feature modules register, so its
 * onResponse hook times every route; the `route` label is the Fastify route pattern
 * (`/api/match/:id`), never the raw URL, and `unmatched` for requests no route took.
 */
import { matchStatuses } from '@openpug/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Gauge } from 'prom-client';
import type { AppContext } from '../../context';
import { isLoopbackAddress } from '../../lib/outbound';
import { sameSecret } from '../../lib/secrets';
import { bearerToken } from '../auth';
import { countMatchesByStatus } from '../matches';
import { queueCount } from '../queue/service';
import { attachMetrics, createMetrics } from './registry';

/** Loopback, or the right METRICS_TOKEN (compared in constant time). */
export function mayReadMetrics(request: FastifyRequest, metricsToken: string | undefined): boolean {
  if (isLoopbackAddress(request.ip)) return true;
  if (!metricsToken) return false;
  const given = bearerToken(request.headers.authorization);
  return given !== null && sameSecret(given, metricsToken);
}

export function installMetrics(app: FastifyInstance, ctx: AppContext): void {
  const metrics = createMetrics();
  attachMetrics(ctx, metrics);
  const { registry, httpDuration } = metrics;
  // A failing database query leaves the last value rather than failing the whole scrape.
  const logFailure = (err: unknown, metric: string) =>
    app.log.warn({ err, metric }, 'metrics: collecting failed');

  new Gauge({
    name: 'openpug_socket_connections',
    help: 'Socket.IO connections open on this instance',
    registers: [registry],
    collect() {
      this.set(ctx.realtime.io.engine.clientsCount);
    },
  });
  new Gauge({
    name: 'openpug_queue_players',
    help: 'Players in the queue (deployment-wide, from the database: every instance reports the same value)',
    registers: [registry],
    async collect() {
      try {
        this.set(await queueCount(ctx.db));
      } catch (err) {
        logFailure(err, 'openpug_queue_players');
      }
    },
  });
  new Gauge({
    name: 'openpug_matches',
    help: 'Matches per status (deployment-wide, from the database: every instance reports the same value)',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      try {
        const rows = await countMatchesByStatus(ctx.db);
        for (const status of matchStatuses)
          this.set({ status }, Number(rows.find((r) => r.status === status)?.n ?? 0));
      } catch (err) {
        logFailure(err, 'openpug_matches');
      }
    },
  });
  new Gauge({
    name: 'openpug_job_lag_seconds',
    help:
      'How late persisted deadlines run: the most any job fired late on this instance since the last scrape, ' +
      'or the age of the oldest overdue pending job (deployment-wide, from the database), whichever is larger',
    registers: [registry],
    async collect() {
      const now = ctx.clock.now();
      let lagMs = ctx.jobs.takeFireLagMs();
      try {
        const oldest = await ctx.jobs.oldestPendingDueAt();
        if (oldest !== null && oldest <= now) lagMs = Math.max(lagMs, now - oldest);
      } catch (err) {
        logFailure(err, 'openpug_job_lag_seconds');
      }
      this.set(Math.max(0, lagMs) / 1000);
    },
  });

  // Timed here rather than with reply.elapsed, which this Fastify leaves NaN in onResponse. Keyed
  // by the request object: per request and gone with it, not a per-app singleton (those live on
  // ctx.state). Callback hooks, not async ones: no promise per request on every route.
  const startedAt = new WeakMap<object, number>();
  app.addHook('onRequest', (request, _reply, done) => {
    startedAt.set(request, performance.now());
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const start = startedAt.get(request);
    if (start !== undefined) {
      httpDuration.observe(
        {
          method: request.method,
          route: request.routeOptions.url ?? 'unmatched',
          status_code: String(reply.statusCode),
        },
        (performance.now() - start) / 1000,
      );
    }
    done();
  });

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!mayReadMetrics(request, ctx.config.METRICS_TOKEN)) return reply.callNotFound();
    const body = await registry.metrics();
    return reply.header('content-type', registry.contentType).header('cache-control', 'no-store').send(body);
  });
}
