/**
 * Prometheus metrics of one app instance: a registry per app context (tests build several apps in
 * one process, so nothing goes to prom-client's global registry). `routes.ts` serves it at
 * `GET /metrics`; other modules count through the helpers here (they import nothing else of it).
 *
 * Per-instance values: the process and Node defaults, the HTTP histogram, socket connections, job
 * lag as seen by this instance's scheduler, notification failures. Deployment-wide values computed
 * from the database (queue players, matches per status) say so in their help text: every instance
 * reports the same number, so aggregate them with max(), not sum().
 */
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import type { AppContext } from '../../context';

export interface AppMetrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  notifyFailures: Counter<'channel' | 'reason'>;
}

/** The metrics module's per-app state (`ctx.state.metrics`): the registry, once installMetrics ran. */
export interface MetricsModuleState {
  app?: AppMetrics;
}

/** Creates the registry of one app (with the process and Node defaults). */
export function createMetrics(): AppMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const httpDuration = new Histogram({
    name: 'openpug_http_request_duration_seconds',
    help: 'HTTP requests answered by this instance, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const notifyFailures = new Counter({
    name: 'openpug_notify_failures_total',
    help: 'Notifications (WhatsApp, Discord, push) this instance gave up on after every retry, by channel and reason',
    labelNames: ['channel', 'reason'] as const,
    registers: [registry],
  });
  return { registry, httpDuration, notifyFailures };
}

export function attachMetrics(ctx: AppContext, metrics: AppMetrics): void {
  ctx.state.metrics.app = metrics;
}

export function metricsOf(ctx: AppContext): AppMetrics | undefined {
  return ctx.state.metrics.app;
}

const CHANNELS = new Set(['whatsapp', 'discord', 'push', 'email']);

/** A bounded label for an error: `http_4xx`/`http_5xx`, `timeout`, `network` or `error`. */
export function failureReason(err: unknown): string {
  const e = err as {
    status?: unknown;
    statusCode?: unknown;
    name?: unknown;
    code?: unknown;
    message?: unknown;
  };
  const status =
    typeof e?.statusCode === 'number' ? e.statusCode : typeof e?.status === 'number' ? e.status : null;
  const message = String(e?.message ?? err);
  const answered = status ?? Number(/answered (\d{3})/.exec(message)?.[1] ?? Number.NaN);
  if (answered >= 400 && answered < 600) return `http_${Math.floor(answered / 100)}xx`;
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError' || /time ?out/i.test(message)) return 'timeout';
  if (typeof e?.code === 'string' && /^E[A-Z]+/.test(e.code)) return 'network';
  if (/fetch failed|ECONN|ENOTFOUND|EAI_AGAIN|socket/i.test(message)) return 'network';
  return 'error';
}

/**
 * Counts a notification given up on. `label` is the delivery's label (`whatsapp <id>`, …): its
 * first word is the channel.
 */
export function countNotifyFailure(ctx: AppContext, label: string, reason: string): void {
  const channel = label.split(' ')[0].toLowerCase();
  metricsOf(ctx)?.notifyFailures.inc({ channel: CHANNELS.has(channel) ? channel : 'other', reason });
}
