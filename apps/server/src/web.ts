/**
 * Serves the built web app from apps/web/dist with history fallback: any GET that is not an API,
 * socket or Matrix path and accepts HTML gets index.html (revalidated on every visit), with the
 * route's first files named in it (web-preloads.ts). Hashed
 * assets are cached for a year and sent as the build's precompressed `.br`/`.gz` files to browsers
 * that accept them; other answers of 1 KB and more (API JSON) are compressed on the fly.
 * Every HTTP answer carries the hardening headers of `installSecurityHeaders`.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import { errorBody, SOCKET_PATH } from '@openpug/shared';
import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from './config';
import { routePages } from './web-preloads';

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

const API_PREFIXES = ['/api/', '/api', SOCKET_PATH, '/_matrix', '/_synapse'];

export async function serveWeb(app: FastifyInstance, webDist: string): Promise<void> {
  const hasIndex = existsSync(path.join(webDist, 'index.html'));
  if (hasIndex) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      // Served by the health module, uncached; a static route would clash with it.
      globIgnore: ['version.json'],
      index: false,
      // The web build writes `.br` and `.gz` beside every text asset (vite.config.ts).
      preCompressed: true,
      setHeaders(reply, filePath) {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          reply.header('cache-control', 'public, max-age=31536000, immutable');
        } else if (path.basename(filePath).startsWith('index.html')) {
          // Always asked again (a 304 when unchanged), so a new deploy's asset names arrive at once.
          reply.header('cache-control', 'no-cache');
        }
      },
    });
  }
  const pageOf = hasIndex ? routePages(webDist) : () => null;
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0];
    const isApi = API_PREFIXES.some((p) => url === p || url.startsWith(p.endsWith('/') ? p : `${p}/`));
    const wantsHtml = (request.headers.accept ?? '').includes('text/html');
    if (!isApi && hasIndex && (request.method === 'GET' || request.method === 'HEAD') && wantsHtml) {
      const page = pageOf(url, request.headers['accept-language']);
      if (!page) return reply.sendFile('index.html');
      // Revalidated on every visit like index.html; the language picks the texts it names.
      reply.header('cache-control', 'no-cache').header('vary', 'Accept-Language').header('etag', page.etag);
      if (request.headers['if-none-match'] === page.etag) return reply.status(304).send();
      return sendCompressed(reply.type('text/html; charset=utf-8'), page.html);
    }
    return reply.status(404).send(errorBody('NOT_FOUND'));
  });
}

const encodings = new Negotiator({ supportedValues: ['br', 'gzip'] });

/**
 * A route's page compressed as installCompression would (its hooks only run for routes, and the
 * page comes from the not-found handler): 2–3 KB that would go out plain on a phone's network.
 */
function sendCompressed(reply: FastifyReply, text: string): FastifyReply {
  const encoding = encodings.negotiate(reply.request.headers['accept-encoding'] ?? '');
  if (!encoding || Buffer.byteLength(text) < COMPRESS_THRESHOLD) return reply.send(text);
  const body = encoding === 'br' ? brotliCompressSync(text, BROTLI_OPTIONS) : gzipSync(text);
  reply.header('vary', [reply.getHeader('vary'), 'Accept-Encoding'].filter(Boolean).join(', '));
  return reply.header('content-encoding', encoding).send(body);
}

/** Answers below this size go out as they are: compression would not save a packet. */
const COMPRESS_THRESHOLD = 1024;
const BROTLI_OPTIONS = { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } };

/**
 * Compresses answers of 1 KB and more that are not compressed yet (API JSON, the OpenAPI document):
 * brotli at quality 4, which costs about what gzip does per request and still beats it on size
 * (quality 11, the zlib default, is for build-time assets), else gzip. Static assets arrive
 * precompressed and keep their encoding.
 */
export async function installCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: true,
    threshold: COMPRESS_THRESHOLD,
    encodings: ['br', 'gzip'],
    brotliOptions: BROTLI_OPTIONS,
  });
}

/** Browser features the app may use: the microphone (voice notes in the chat), on its own pages only. */
export const PERMISSIONS_POLICY =
  'accelerometer=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(self), payment=(), usb=()';

/** Paths of the embedded Matrix homeserver: a public, CORS-enabled API that other clients may use. */
const MATRIX_PREFIXES = ['/_matrix/', '/_synapse/', '/.well-known/matrix/'];

/** The Content-Security-Policy directives for the web app and every other answer. */
export function contentSecurityPolicy(config: Config): Record<string, string[]> {
  const publicUrl = new URL(config.PUBLIC_URL);
  const https = publicUrl.protocol === 'https:';
  const connect = new Set([
    "'self'",
    // 'self' covers same-origin WebSockets in current browsers; older ones need them spelled out.
    `${https ? 'wss' : 'ws'}://${publicUrl.host}`,
    // The Matrix client talks to PUBLIC_URL, or to Synapse when one is configured.
    publicUrl.origin,
    ...(config.MATRIX_HOMESERVER_URL
      ? [new URL(config.MATRIX_PUBLIC_URL ?? config.MATRIX_HOMESERVER_URL).origin]
      : []),
    // Chat media and recorded voice notes are blob: URLs the page may read back.
    'blob:',
  ]);
  return {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'object-src': ["'none'"],
    // The built app has no inline script (Vite emits module files); the Steam popup page brings
    // its own per-response policy with a nonce.
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    // MUI styles through emotion, which injects <style> elements at run time (and index.html has a
    // first-paint <style>): without nonces plumbed through emotion, inline styles must be allowed.
    // Styles cannot run script, so this is the accepted trade-off.
    'style-src': ["'self'", "'unsafe-inline'"],
    // https: for player avatars, which are Steam CDN addresses; chat media arrive as blob: URLs.
    'img-src': ["'self'", 'data:', 'blob:', 'https:'],
    // Voice notes and notification sounds.
    'media-src': ["'self'", 'blob:', 'data:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': [...connect],
    'worker-src': ["'self'"],
    'manifest-src': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    ...(https ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

/** The options helmet gets: the CSP above, and helmet's other headers as this app wants them. */
export function helmetOptions(config: Config): HelmetOptions {
  const https = new URL(config.PUBLIC_URL).protocol === 'https:';
  return {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(config) },
    // The Steam login popup hands its ticket to window.opener; an opener policy would cut that link
    // once the popup has been on Steam's site.
    crossOriginOpenerPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: https ? { maxAge: 365 * 24 * 60 * 60, includeSubDomains: false } : false,
  };
}

/**
 * The headers helmet sets, worked out once: its middleware runs against a response that only
 * records them. Every option here is static (no per-request nonce), so every answer gets the same
 * set. @fastify/helmet builds a new helmet middleware, parsing the whole CSP again, on every request
 * (its `buildHelmetOnRoutes`), which was 12 % of the server's CPU on a bare route (bench/RESULTS.md,
 * session 13); helmet's own issue #430 asks for exactly this precomputation.
 */
export function securityHeaders(config: Config): Record<string, string> {
  const headers: Record<string, string> = { 'permissions-policy': PERMISSIONS_POLICY };
  const recorder = {
    setHeader(name: string, value: string) {
      headers[name.toLowerCase()] = value;
    },
    removeHeader() {},
  };
  let failure: unknown;
  helmet(helmetOptions(config))({} as never, recorder as never, (err?: unknown) => {
    failure = err;
  });
  if (failure) throw failure;
  return headers;
}

/**
 * Hardening headers on every HTTP answer (helmet): the CSP above, nosniff, no referrer, no framing
 * (frame-ancestors 'none' and X-Frame-Options DENY), a Permissions-Policy that allows only the
 * microphone and only for the app itself, and HSTS when PUBLIC_URL is https (over plain http the
 * header would be ignored, and a local http setup must stay reachable).
 *
 * A route may send its own Content-Security-Policy or Cross-Origin-Resource-Policy (the Steam
 * popup page, Matrix media downloads): headers a route sets win over these, which are set first.
 */
export function installSecurityHeaders(app: FastifyInstance, config: Config): void {
  const headers = securityHeaders(config);
  // A callback hook, not an async one: no promise per request for a few header writes.
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers);
    // Matrix clients on other origins load media and avatars from the homeserver.
    const url = request.url;
    if (MATRIX_PREFIXES.some((p) => url.startsWith(p)))
      reply.header('cross-origin-resource-policy', 'cross-origin');
    done();
  });
}
