/**
 * The embedded Matrix homeserver: the subset of the Client-Server API that matrix-js-sdk needs for
 * the product's chat (direct, global and match rooms; messages, media, typing, receipts, tags,
 * scrollback), plus Synapse's shared-secret admin registration so provisioning uses one code path
 * for this and for Synapse. Mounted at /_matrix (with /_synapse/admin/v1/register and
 * /.well-known/matrix/client) when MATRIX_HOMESERVER_URL is unset. Everything is stored in the
 * product database (tables in ./schema.ts); sync wakeups are in-process, so this serves one
 * instance: scale-out deployments run Synapse.
 *
 * Layout: users.ts (accounts, tokens, filters), events.ts (event log, state), rooms.ts (room
 * operations and their authorisation), moderation.ts (kick, ban, unban, event reports — these go
 * to the product's reports queue through `reportSink`), accountdata.ts (receipts, account data,
 * unread counts),
 * media.ts, sync.ts, stream.ts (stream counter, notifier, typing), routes/* (HTTP per area).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Config } from '../config';
import type { AppContext } from '../context';
import { AppError } from '../lib/errors';
import { nestsDeeperThan } from '../lib/input';
import { fileChatMessageReport } from '../modules/reports/service';
import type { Homeserver } from './context';
import { installMatrixErrors, MatrixError, mxUnrecognized } from './errors';
import { adminRoutes, authRoutes } from './routes/auth';
import { ephemeralRoutes } from './routes/ephemeral';
import { mediaRoutes } from './routes/media';
import { metaRoutes } from './routes/meta';
import { roomRoutes } from './routes/rooms';
import { syncRoutes } from './routes/sync';
import { userRoutes } from './routes/user';
import { Notifier, Stream, Typing } from './stream';

/** The embedded homeserver's server name: MATRIX_SERVER_NAME, else PUBLIC_URL's host name. */
export function embeddedServerName(config: Config): string {
  return config.MATRIX_SERVER_NAME ?? new URL(config.PUBLIC_URL).hostname;
}

/** MATRIX_SHARED_SECRET, else a secret generated once and kept in DATA_DIR. */
export function embeddedSharedSecret(config: Config): string {
  if (config.MATRIX_SHARED_SECRET) return config.MATRIX_SHARED_SECRET;
  const file = path.join(config.dataDir, 'matrix_shared_secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
  return secret;
}

function cors(app: FastifyInstance): void {
  app.addHook('onRequest', async (_req, reply) => {
    reply.header('access-control-allow-origin', '*');
    reply.header('access-control-allow-methods', 'GET, POST, PUT, DELETE, OPTIONS');
    reply.header('access-control-allow-headers', 'X-Requested-With, Content-Type, Authorization');
  });
}

/**
 * Deepest nesting a body may have. Real Matrix content nests a few levels; thousands of levels
 * overflowed the stack of the recursive JSON code (canonical JSON, hashing) as a 500.
 */
const MAX_BODY_DEPTH = 64;

/** Matrix bodies are JSON whatever the content type says; an empty body is `{}`. */
function jsonBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, text, done) => {
    const s = String(text);
    if (s.trim() === '') return done(null, {});
    let parsed: unknown;
    try {
      parsed = JSON.parse(s);
    } catch {
      return done(new MatrixError(400, 'M_NOT_JSON', 'Content not JSON.'), undefined);
    }
    if (nestsDeeperThan(parsed, MAX_BODY_DEPTH))
      return done(new MatrixError(400, 'M_BAD_JSON', 'Content is nested too deeply.'), undefined);
    done(null, parsed);
  });
}

export function createHomeserver(ctx: AppContext): Homeserver {
  return {
    db: ctx.db,
    serverName: embeddedServerName(ctx.config),
    now: () => ctx.clock.now(),
    stream: new Stream(),
    notifier: new Notifier(),
    typing: new Typing(() => ctx.clock.now()),
    maxUploadBytes: ctx.config.MATRIX_MAX_UPLOAD_BYTES,
    sharedSecret: embeddedSharedSecret(ctx.config),
    nonces: new Map(),
    closing: false,
    // Reports reach openpug's admin reports queue; the reporter's hourly report limit answers as
    // Matrix rate limiting (429 M_LIMIT_EXCEEDED).
    reportSink: async (r) => {
      try {
        await fileChatMessageReport(ctx, {
          reporterMatrixId: r.reporter,
          senderMatrixId: r.sender,
          roomId: r.roomId,
          type: r.type,
          content: r.content,
          reason: r.reason,
        });
      } catch (err) {
        if (err instanceof AppError && err.status === 429)
          throw new MatrixError(429, 'M_LIMIT_EXCEEDED', 'Too many requests', { retry_after_ms: 3_600_000 });
        throw err;
      }
    },
  };
}

/** The module entry (listed in app.ts): mounts the homeserver unless Synapse is configured. */
export const homeserverModule =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    if (ctx.config.MATRIX_HOMESERVER_URL) return;
    const hs = createHomeserver(ctx);
    await hs.stream.load(ctx.db);
    app.addHook('preClose', async () => {
      hs.closing = true;
      hs.notifier.wakeAll();
    });

    await app.register(async (root) => {
      installMatrixErrors(root);
      jsonBodies(root);
      cors(root);
      await root.register(adminRoutes(hs));
      root.get('/.well-known/matrix/client', async () => ({
        'm.homeserver': { base_url: ctx.config.PUBLIC_URL },
      }));
    });

    await app.register(
      async (mx) => {
        installMatrixErrors(mx);
        jsonBodies(mx);
        cors(mx);
        const patterns: RegExp[] = [];
        mx.addHook('onRoute', (route) => {
          route.schema = { ...(route.schema ?? {}), hide: true };
          const re = route.url.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z]+/g, '[^/]+');
          patterns.push(new RegExp(`^${re}$`));
        });
        mx.options('/*', async (_req, reply) => reply.status(204).send());
        for (const routes of [
          metaRoutes(hs, ctx.config.PUBLIC_URL),
          authRoutes(hs),
          syncRoutes(hs),
          roomRoutes(hs),
          ephemeralRoutes(hs),
          userRoutes(hs),
        ]) {
          await mx.register(routes);
        }
        await mx.register(mediaRoutes(hs));
        mx.setNotFoundHandler(async (req) => {
          const url = req.url.split('?')[0];
          throw mxUnrecognized(patterns.some((p) => p.test(url)) ? 405 : 404);
        });
      },
      { prefix: '/_matrix' },
    );
  };
