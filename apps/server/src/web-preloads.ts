/**
 * index.html with the requested route's first files named in it (`<link rel="modulepreload">` for
 * scripts, `<link rel="preload" as="style">` for stylesheets), from the web build's
 * dist/preloads.json (apps/web/src/app/routePreloads.ts). Without them the browser learns of the
 * screen's chunk, FeatureProviders and the texts only once the shell has run: one more round
 * trip each before the first paint on a phone's network (issue 20 target 2).
 *
 * The language's texts follow the first Accept-Language tag, as the web's start-up follows
 * navigator.language (a stored choice the server cannot see may differ: one small file wasted).
 * Pages are made once per route and language and kept; a build without preloads.json, or a path
 * no route matches, gets index.html as it is.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_LOCALE, LOCALES } from '@openpug/shared';

interface PreloadsFile {
  routes: { path: string; files: string[] }[];
  locales: Record<string, string[]>;
}

export interface RoutePage {
  html: string;
  etag: string;
}

/** `/user/:userId/matches` → a RegExp for the whole path; `*` matches anything. */
function pathPattern(route: string): RegExp {
  if (route === '*') return /^/;
  const source = route
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

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
  }));
  const made = new Map<string, RoutePage>();
  return (urlPath, acceptLanguage) => {
    const route = routes.find((r) => r.pattern.test(urlPath));
    if (!route) return null;
    const locale = localeOf(acceptLanguage);
    const key = `${route.i} ${locale}`;
    let page = made.get(key);
    if (!page) {
      const files = [...route.files, ...(preloads.locales[locale] ?? [])];
      const html = index.replace('</head>', `${files.map(linkTag).join('\n    ')}\n  </head>`);
      page = { html, etag: `"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"` };
      made.set(key, page);
    }
    return page;
  };
}
