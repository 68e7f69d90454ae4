/**
 * Turns the route table into react-router route objects: every screen lazy, every route guarded,
 * `/user/:userId` redirecting to its matches, all inside the app layout.
 */
import { type LoaderFunctionArgs, matchRoutes, type RouteObject, redirect } from 'react-router';
import { requestEarly } from '../features/api/early';
import { loadChunk } from './chunkRecovery';
import { guardLoader } from './guard';
import { AppLayout } from './layout/AppLayout';
import { RouteErrorScreen } from './layout/RouteErrorScreen';
import { StartupSplash } from './layout/StartupSplash';
import { PLAIN_SCREENS, ROUTE_TABLE, type RouteEntry } from './routeTable';
import { SCREEN_MODULES } from './screenModules';

/** The index of /user/:userId only redirects; it never renders. */
function RedirectOnly() {
  return null;
}

function lazyScreen(entry: RouteEntry): RouteObject['lazy'] {
  const { screen, content, component = 'default' } = entry;
  if (!screen) return undefined;
  return async () => {
    const plain = PLAIN_SCREENS.has(screen);
    const [module, providers] = await loadChunk(() =>
      Promise.all([SCREEN_MODULES[screen](), plain ? null : import('./FeatureProviders')]),
    );
    const Screen = module[component];
    if (!Screen) throw new Error(`Screen module ${screen} has no export ${component}`);
    if (!providers) return { Component: content ? () => <Screen content={content} /> : Screen };
    const { FeatureProviders } = providers;
    return {
      // Created once, when the route's module resolves; react-router keeps it for the route.
      // biome-ignore lint/correctness/noComponentHookFactories: a one-time wrapper, not per render
      Component: () => (
        <FeatureProviders>
          <Screen content={content} />
        </FeatureProviders>
      ),
    };
  };
}

function toRouteObject(entry: RouteEntry, parentPath?: string): RouteObject {
  // Children are declared with absolute paths; react-router wants them relative to the parent.
  const path = parentPath ? entry.path.slice(parentPath.length + 1) : entry.path;
  const children = entry.children?.map((child) => toRouteObject(child, entry.path));
  if (entry.path === '/user/:userId' && children) {
    children.unshift({
      index: true,
      Component: RedirectOnly,
      loader: ({ params }: LoaderFunctionArgs) => redirect(`/user/${params.userId}/matches`),
    });
  }
  return {
    id: entry.name ?? entry.path,
    path,
    loader: guardLoader(entry.requiresAuth),
    lazy: lazyScreen(entry),
    handle: entry.firstRequest ? { firstRequest: entry.firstRequest } : undefined,
    children,
  };
}

export function buildRoutes(table: RouteEntry[] = ROUTE_TABLE): RouteObject[] {
  return [
    {
      id: 'root',
      Component: AppLayout,
      HydrateFallback: StartupSplash,
      ErrorBoundary: RouteErrorScreen,
      children: table.map((entry) => toRouteObject(entry)),
    },
    // The phone-first queue app (issue 8): outside the layout, signs in from its one-time link.
    {
      id: 'mobile',
      path: '/m',
      HydrateFallback: StartupSplash,
      lazy: () => loadChunk(() => import('../features/mobile/route')),
    },
  ];
}

/** A route's `firstRequest` with its params filled in (each encoded as a path segment). */
export function firstRequestPath(pattern: string, params: Record<string, string | undefined>): string {
  return pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}

/**
 * Starts loading the chunks of the screen at `pathname` (with the feature providers) and the
 * screen's first request at once, while start-up still waits for the texts: the router, created
 * after start-up, then finds them loaded instead of adding more round trips before the first paint
 * (performance issue target 2). Only downloads: the guard and the route's own loading stay with
 * the router; a failure is left to it, and a failed request to the screen.
 */
export function prefetchRoute(pathname: string, routes: RouteObject[] = buildRoutes()): void {
  for (const { route, params } of matchRoutes(routes, pathname) ?? []) {
    if (typeof route.lazy === 'function') void route.lazy().catch(() => undefined);
    const firstRequest = (route.handle as { firstRequest?: string } | undefined)?.firstRequest;
    if (firstRequest) requestEarly(firstRequestPath(firstRequest, params));
  }
}
