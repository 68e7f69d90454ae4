/**
 * What a first visit to each route loads after the entry and its shell: the route's screen chunk
 * and its imports, FeatureProviders (MUI, the query cache) for every screen but the plain ones,
 * and the texts of the visitor's language. Written by the build as dist/preloads.json; the server
 * (apps/server/src/web.ts) names these files in index.html as `<link rel="modulepreload">` for the
 * requested path, so they download beside the shell instead of after it has run and asked for
 * them — on a phone's network each of those steps was a round trip before the first paint
 * (issue 20 target 2).
 */
import type { Plugin } from 'vite';
import {
  chunkOf,
  entryKey,
  graphFromBundle,
  type ShellGraph,
  staticClosure,
} from '../serviceWorker/shellPrecache';
import { PLAIN_SCREENS, ROUTE_TABLE, type RouteEntry } from './routeTable';

export interface RoutePreloads {
  /**
   * In route-table order; the server takes the first path that matches (`*` last). `firstRequest`:
   * the screen's first API GET (below /api, with the path's params; its own or its parent's), which
   * the server names as `<link rel="preload" as="fetch">`.
   */
  routes: { path: string; files: string[]; firstRequest?: string }[];
  /** The texts of each language (chosen by the request's Accept-Language). */
  locales: Record<string, string[]>;
}

const PROVIDERS_MODULE = 'app/FeatureProviders';
const screenModule = (screen: string) => `screens/${screen}/index`;
/** The texts of one language are a chunk of their own (i18n/index.ts imports each on demand). */
const TEXTS = /[\\/]i18n[\\/]([a-z]{2})\.json$/;

/** The chunk keys loaded with the module `wanted`: its chunk and everything it imports statically. */
const closure = (graph: ShellGraph, wanted: string) => staticClosure(graph, [chunkOf(graph, wanted)]);

export function routePreloads(graph: ShellGraph, table: RouteEntry[] = ROUTE_TABLE): RoutePreloads {
  // index.html names these already.
  const loaded = new Set(staticClosure(graph, [entryKey(graph)]));
  // Scripts, then the stylesheets the screen's import waits for.
  const files = (keys: string[]) => {
    const wanted = [...new Set(keys)].filter((k) => !loaded.has(k));
    const css = wanted.flatMap((k) => graph[k].css ?? []);
    return [...new Set([...wanted.map((k) => graph[k].file), ...css])].map((file) => `/${file}`);
  };
  const routes = withInheritedFirstRequest(table)
    .filter((route) => route.screen)
    .map((route) => {
      const screen = route.screen as string;
      const keys = closure(graph, screenModule(screen));
      if (!PLAIN_SCREENS.has(route.screen as never)) keys.push(...closure(graph, PROVIDERS_MODULE));
      const firstRequest = route.firstRequest && { firstRequest: route.firstRequest };
      return { path: route.path, files: files(keys), ...firstRequest };
    });
  // Found in the build rather than imported from the shared package: the Vite config that runs
  // this cannot load the shared package's TypeScript.
  const locales: Record<string, string[]> = {};
  for (const key of Object.keys(graph)) {
    const locale = (graph[key].src ?? '').match(TEXTS)?.[1];
    if (locale) locales[locale] = files(staticClosure(graph, [key]));
  }
  return { routes, locales };
}

/** Every route (children after their parent), a child carrying its parent's first request. */
function withInheritedFirstRequest(table: RouteEntry[], parent?: string): RouteEntry[] {
  return table.flatMap((entry) => {
    const firstRequest = entry.firstRequest ?? parent;
    return [{ ...entry, firstRequest }, ...withInheritedFirstRequest(entry.children ?? [], firstRequest)];
  });
}

/** The build step: writes dist/preloads.json from the bundle. */
export function routePreloadsFile(): Plugin {
  return {
    name: 'openpug-route-preloads',
    apply: 'build',
    generateBundle(_options, bundle) {
      const preloads = routePreloads(graphFromBundle(bundle as Parameters<typeof graphFromBundle>[0]));
      this.emitFile({ type: 'asset', fileName: 'preloads.json', source: JSON.stringify(preloads) });
    },
  };
}
