/**
 * Serves the built web app from apps/web/dist with history fallback: any GET that is not an API,
 * socket or Matrix path and accepts HTML gets index.html. Hashed assets are cached for a year.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import { errorBody } from '@openpug/shared';
import type { FastifyInstance } from 'fastify';

export function defaultWebDist(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  // src/ when run from source, dist/ when bundled: both sit one level under apps/server.
  return path.resolve(here, '../../web/dist');
}

/** Version written by the web build; falls back to the package version. */
export function readWebVersion(webDist: string, fallback: string): string {
  try {
    const v = JSON.parse(readFileSync(path.join(webDist, 'version.json'), 'utf8')) as { version?: unknown };
    return typeof v.version === 'string' ? v.version : fallback;
  } catch {
    return fallback;
  }
}

const API_PREFIXES = ['/api/', '/api', '/socket', '/_matrix', '/_synapse'];

export async function serveWeb(app: FastifyInstance, webDist: string): Promise<void> {
  const hasIndex = existsSync(path.join(webDist, 'index.html'));
  if (hasIndex) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      // Served by the health module, uncached; a static route would clash with it.
      globIgnore: ['version.json'],
      index: false,
      setHeaders(reply, filePath) {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          reply.header('cache-control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0];
    const isApi = API_PREFIXES.some((p) => url === p || url.startsWith(p.endsWith('/') ? p : `${p}/`));
    const wantsHtml = (request.headers.accept ?? '').includes('text/html');
    if (!isApi && hasIndex && (request.method === 'GET' || request.method === 'HEAD') && wantsHtml) {
      reply.header('cache-control', 'no-cache');
      return reply.sendFile('index.html');
    }
    return reply.status(404).send(errorBody('NOT_FOUND'));
  });
}
