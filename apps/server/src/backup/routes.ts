/**
 * Backups of a running PGlite server. PGlite allows one process per data directory and the
 * server holds it (db/lock.ts), so `npm run admin -- backup` asks the server instead:
 * `GET /api/internal/backup` streams the backup (JSON lines, see ./index.ts).
 *
 * Only for a local admin: the route answers only a connection from loopback that did not come
 * through a proxy (no X-Forwarded-For / Forwarded / X-Real-IP: a reverse proxy on the same host
 * also connects from loopback) and carries the token the server wrote, at listen time, into
 * `$DATA_DIR/backup-endpoint.json` (mode 0600, a new random token each start). Whoever can read
 * that file can read the database files in the same directory anyway. Everything else is a 404,
 * as if the route did not exist. PostgreSQL deployments do not need it (the CLI connects itself)
 * and do not get it.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context';
import { notFound } from '../lib/errors';
import { sameSecret } from '../lib/secrets';
import { writeBackup } from './index';

export const BACKUP_ENDPOINT_FILE = 'backup-endpoint.json';
export const BACKUP_TOKEN_HEADER = 'x-openpug-backup-token';
export const BACKUP_PATH = '/api/internal/backup';

export interface BackupEndpoint {
  pid: number;
  /** Loopback address the server answers on, or null when it listens on another address only. */
  host: string | null;
  port: number;
  token: string;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
const PROXY_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip', 'x-forwarded-host'];

function loopbackHostFor(address: string): string | null {
  if (address === '0.0.0.0' || address.startsWith('127.')) return '127.0.0.1';
  if (address === '::' || address === '::1') return '::1';
  return null;
}

export function backupModule(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    if (ctx.database.kind !== 'pglite') return;
    const token = randomBytes(32).toString('base64url');
    const expected = Buffer.from(token);
    const file = path.join(ctx.config.dataDir, BACKUP_ENDPOINT_FILE);

    app.addHook('onListen', async () => {
      const address = app.server.address() as AddressInfo | null;
      if (!address || typeof address !== 'object') return;
      const endpoint: BackupEndpoint = {
        pid: process.pid,
        host: loopbackHostFor(address.address),
        port: address.port,
        token,
      };
      try {
        writeFileSync(file, JSON.stringify(endpoint), { mode: 0o600 });
      } catch (err) {
        app.log.warn(
          { err },
          'could not write the backup endpoint file: admin backups need the server stopped',
        );
      }
    });
    app.addHook('onClose', async () => {
      try {
        const written = JSON.parse(readFileSync(file, 'utf8')) as BackupEndpoint;
        if (written.token === token) rmSync(file, { force: true });
      } catch {
        // gone already
      }
    });

    app.get(BACKUP_PATH, { schema: { hide: true } }, async (request, reply) => {
      const given = String(request.headers[BACKUP_TOKEN_HEADER] ?? '');
      const fromLoopback = LOOPBACK.has(request.socket.remoteAddress ?? '');
      const proxied = PROXY_HEADERS.some((h) => request.headers[h] !== undefined);
      if (!fromLoopback || proxied || !sameSecret(given, expected)) {
        throw notFound();
      }
      const out = new PassThrough();
      const write = (chunk: string) =>
        out.write(chunk) ? undefined : new Promise<void>((resolve) => out.once('drain', () => resolve()));
      writeBackup(ctx.database, write).then(
        (summary) => {
          request.log.info({ schema: summary.schema }, 'backup streamed');
          out.end();
        },
        (err) => {
          request.log.error({ err }, 'backup failed');
          out.destroy(err); // the client sees no end line and keeps no file
        },
      );
      reply.header('content-type', 'application/x-ndjson').header('cache-control', 'no-store');
      return reply.send(out);
    });
  };
}
