/**
 * index.html with the requested route's first files named in it (`<link rel="modulepreload">` for
 * scripts, `<link rel="preload" as="style">` for stylesheets), from the web build's
 * dist/preloads.json (apps/web/src/app/routePreloads.ts). Without them the browser learns of the
 * screen's chunk, FeatureProviders and the texts only once the shell has run: one more round
 * trip each before the first paint on a phone's network (issue 20 target 2).
 *
 * The language's texts follow the first Accept-Language tag, as the web's start-up follows
 * navigator.language (a stored choice the server cannot see may differ: one small file wasted).
 * A route whose screen starts with an API GET (the match room's state, the player's card) also
 * names that GET, as `<link rel="preload" as="fetch">`: the browser asks for the data while it
 * parses the page, and the app's own fetch of the same URL takes that answer (about one round
 * trip and the shell's run less before the screen's largest paint; bench/RESULTS.md, session 16).
 *
 * Pages are made once per route and language and kept (the data link, which names the path's
 * params, is added to the kept page per request); a build without preloads.json, or a path no
 * route matches, gets index.html as it is.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_LOCALE, LOCALES } from '@openpug/shared';

interface PreloadsFile {
  /** `firstRequest`: the screen's first API GET below /api, with the route's params. */
  routes: { path: string; files: string[]; firstRequest?: string }[];
  locales: Record<string, string[]>;
}

export interface RoutePage {
  html: string;
  etag: string;
}

/** `/user/:userId/matches` → a RegExp for the whole path, a named group per param; `*` matches anything. */
function pathPattern(route: string): RegExp {
  if (route === '*') return /^/;
  const source = route
    .split('/')
    .map((part) =>
      part.startsWith(':') ? `(?<${part.slice(1)}>[^/]+)` : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${source}/?$`);
}

/**
 * The first request's URL for this path's params, each decoded and encoded again as one path
 * segment (so nothing from the address reaches the page unescaped); null for an undecodable one.
 */
function firstRequestUrl(pattern: string, params: Record<string, string>): string | null {
  try {
    return `/api${pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(decodeURIComponent(params[name] ?? '')))}`;
  } catch {
    return null;
  }
}

const fetchLinkTag = (url: string) => `<link rel="preload" as="fetch" crossorigin="anonymous" href="${url}">`;
// Weak: the same page goes out plain, brotli or gzip (web.ts), so it names the text, not the bytes.
const etagOf = (html: string) => `W/"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`;

function localeOf(acceptLanguage: string | undefined): string {
  const first = acceptLanguage?.split(',')[0]?.trim().slice(0, 2).toLowerCase();
  return (LOCALES as readonly string[]).includes(first ?? '') ? (first as string) : DEFAULT_LOCALE;
}

const linkTag = (file: string) =>
  file.endsWith('.css')
    ? `<link rel="preload" as="style" crossorigin href="${file}">`
    : `<link rel="modulepreload" crossorigin href="${file}">`;

/** Returns the page for a path and Accept-Language, or null to serve index.html unchanged. */
export function routePages(webDist: string): (urlPath: string, acceptLanguage?: string) => RoutePage | null {
  const preloadsPath = path.join(webDist, 'preloads.json');
  const index = readFileSync(path.join(webDist, 'index.html'), 'utf8');
  if (!existsSync(preloadsPath) || !index.includes('</head>')) return () => null;
  const preloads = JSON.parse(readFileSync(preloadsPath, 'utf8')) as PreloadsFile;
  const routes = preloads.routes.map((route, i) => ({
    i,
    pattern: pathPattern(route.path),
    files: route.files,
    firstRequest: route.firstRequest,
  }));
  const made = new Map<string, RoutePage>();
  return (urlPath, acceptLanguage) => {
    const route = routes.find((r) => r.pattern.test(urlPath));
    if (!route) return null;
    const page = routePage(route, acceptLanguage);
    const url = route.firstRequest
      ? firstRequestUrl(route.firstRequest, route.pattern.exec(urlPath)?.groups ?? {})
      : null;
    if (!url) return page;
    // Ahead of the page's first link or script, so the request is not queued behind them.
    const at = page.html.search(/<(link|script)\b/);
    const cut = at >= 0 ? at : page.html.indexOf('</head>');
    const html = `${page.html.slice(0, cut)}${fetchLinkTag(url)}\n    ${page.html.slice(cut)}`;
    return { html, etag: etagOf(html) };
  };

  function routePage(route: (typeof routes)[number], acceptLanguage: string | undefined): RoutePage {
    const locale = localeOf(acceptLanguage);
    const key = `${route.i} ${locale}`;
    let page = made.get(key);
    if (!page) {
      const files = [...route.files, ...(preloads.locales[locale] ?? [])];
      const html = index.replace('</head>', `${files.map(linkTag).join('\n    ')}\n  </head>`);
      page = { html, etag: etagOf(html) };
      made.set(key, page);
    }
    return page;
  }
}
