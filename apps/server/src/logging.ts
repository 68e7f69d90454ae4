/**
 * Logging setup (pino through Fastify): JSON lines without secrets.
 *
 * - Every request gets a random id (`reqId` on each of its log lines, `X-Request-Id` on the answer);
 *   a client-sent id is not trusted.
 * - A request is logged as method, path and client address only: no headers, no body (Fastify never
 *   logs bodies; nothing here adds them), no query string (Matrix clients may put `access_token`
 *   there, the outbox an e-mail address), and the one-time ids of `/verify/:id` and `/reset/:id`
 *   (links from account mails) masked.
 * - Should anything log headers anyway, `authorization`, `cookie` and `set-cookie` are redacted.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Config } from './config';

export const REDACTED = '[redacted]';

const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  '*.headers.authorization',
  '*.headers.cookie',
  'authorization',
  'password',
  'token',
  '*.password',
  '*.token',
];

/** Path segments after these are secrets (one-time ids in the links of account e-mails). */
const SECRET_AFTER = /^(\/(?:verify|reset)\/)[^/?#]+/i;

/** The request's path for the log: no query string, one-time ids masked. */
export function loggableUrl(url: string | undefined): string {
  const pathOnly = (url ?? '').split(/[?#]/)[0];
  return pathOnly.replace(SECRET_AFTER, `$1${REDACTED}`);
}

interface LoggedRequest {
  method?: string;
  url?: string;
  ip?: string;
  socket?: { remoteAddress?: string };
}

/** Fastify `logger` options: the level of LOG_LEVEL plus redaction and serializers; `extra` (a stream, a level) wins. */
export function loggerOptions(config: Pick<Config, 'LOG_LEVEL'>, extra: object = {}): object {
  return {
    level: config.LOG_LEVEL,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: {
      req(req: LoggedRequest) {
        return {
          method: req.method,
          url: loggableUrl(req.url),
          remoteAddress: req.ip ?? req.socket?.remoteAddress,
        };
      },
    },
    ...extra,
  };
}

/** Fastify server options for request ids: random, never taken from the client. */
export const requestIdOptions = {
  genReqId: () => randomUUID(),
  requestIdHeader: false,
} satisfies Partial<FastifyServerOptions>;

/** Sends the request id back, so a user's report can be found in the logs. */
export function installRequestIdHeader(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
}
