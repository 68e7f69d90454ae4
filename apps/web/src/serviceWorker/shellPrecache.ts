/**
 * The app shell the service worker precaches at install: index.html plus every file the landing
 * route loads before its first paint — the entry chunk, the landing screen and the English texts
 * (the same walk as apps/web/scripts/initial-js.mjs), everything they import statically, and
 * their CSS. Works on a plain chunk graph, so the Vite plugin (from the bundle) and the tests
 * (from dist/.vite/manifest.json) compute the list the same way.
 */

/** One chunk of the build: its output file, its static imports (keys of the graph) and CSS files. */
export interface ShellChunk {
  file: string;
  /** Source module the chunk stands for (a manifest key, or the bundle's facade module). */
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

export type ShellGraph = Record<string, ShellChunk>;

/** Loaded before the first paint besides the entry: the router waits for the landing screen, start-up for the texts. */
export const LANDING_MODULES = ['screens/landing/index', 'i18n/en.json'];

export const SHELL_PAGE = '/index.html';

/** The key of the build's entry chunk. */
export function entryKey(graph: ShellGraph): string {
  const entry = Object.keys(graph).find((key) => graph[key].isEntry);
  if (!entry) throw new Error('the build has no entry chunk');
  return entry;
}

/** The key of the chunk that stands for the source module `wanted` (a path fragment). */
export function chunkOf(graph: ShellGraph, wanted: string): string {
  const key = Object.keys(graph).find((k) => (graph[k].src ?? k).includes(wanted));
  if (!key) throw new Error(`the build has no chunk for ${wanted}`);
  return key;
}

/** The chunks loaded with `starts`: those and everything they import statically. */
export function staticClosure(graph: ShellGraph, starts: readonly string[]): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || !graph[key]) return;
    seen.add(key);
    for (const next of graph[key].imports ?? []) visit(next);
  };
  for (const start of starts) visit(start);
  return [...seen];
}

/** URLs to precache, sorted: index.html, then the landing route's JS and CSS. */
export function shellFiles(graph: ShellGraph, landingModules: readonly string[] = LANDING_MODULES): string[] {
  const starts = [entryKey(graph), ...landingModules.map((wanted) => chunkOf(graph, wanted))];
  const files = new Set<string>();
  for (const key of staticClosure(graph, starts)) {
    files.add(`/${graph[key].file}`);
    for (const css of graph[key].css ?? []) files.add(`/${css}`);
  }
  return [SHELL_PAGE, ...[...files].sort()];
}

/** The graph of a Vite build manifest (dist/.vite/manifest.json). */
export function graphFromManifest(
  manifest: Record<string, { file: string; isEntry?: boolean; imports?: string[]; css?: string[] }>,
): ShellGraph {
  const graph: ShellGraph = {};
  for (const [key, chunk] of Object.entries(manifest)) {
    graph[key] = {
      file: chunk.file,
      src: key,
      isEntry: chunk.isEntry,
      imports: chunk.imports,
      css: chunk.css,
    };
  }
  return graph;
}

/** The graph of a bundle as Vite's generateBundle hook sees it (file names as keys). */
export function graphFromBundle(
  bundle: Record<
    string,
    | {
        type: 'chunk';
        facadeModuleId: string | null;
        isEntry: boolean;
        imports: string[];
        viteMetadata?: { importedCss: Set<string> };
      }
    | { type: 'asset' }
  >,
): ShellGraph {
  const graph: ShellGraph = {};
  for (const [fileName, item] of Object.entries(bundle)) {
    if (item.type !== 'chunk') continue;
    graph[fileName] = {
      file: fileName,
      src: item.facadeModuleId ?? undefined,
      isEntry: item.isEntry,
      imports: item.imports,
      css: [...(item.viteMetadata?.importedCss ?? [])],
    };
  }
  return graph;
}
