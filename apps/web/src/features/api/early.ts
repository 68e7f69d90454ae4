/**
 * A screen's first request, started with the app instead of after the screen's first render:
 * app/routes.tsx prefetchRoute starts the GET a route names (routeTable `firstRequest`) while the
 * shell still loads the texts and the screen's chunk, so the data is there, or on its way, when
 * the screen first renders. On a phone's network that is one round trip less before the match
 * room's result line and the player's name paint (bench/RESULTS.md, session 16).
 */
import { api, type RequestOptions } from './client';

/** Older than this, an early answer is not used: the screen asks again. */
const FRESH_MS = 10_000;

interface EarlyRequest {
  at: number;
  response: Promise<unknown>;
  /** Set once the answer is in: a screen rendering after that starts with it. */
  arrived?: { value: unknown; at: number };
}

const early = new Map<string, EarlyRequest>();

export function requestEarly(path: string): void {
  const request: EarlyRequest = { at: Date.now(), response: api.get(path, { silent: true }) };
  request.response.then(
    (value) => {
      request.arrived = { value, at: Date.now() };
    },
    // Reported by the screen that takes it; one never taken is dropped.
    () => undefined,
  );
  early.set(path, request);
}

/**
 * The early answer for `path` if it is already in (once, while fresh), with when it came: a
 * screen's first render starts with it, so its first paint shows the data instead of a spinner.
 */
export function takeArrived<T>(path: string): { value: T; at: number } | undefined {
  const request = early.get(path);
  if (!request?.arrived || Date.now() - request.at >= FRESH_MS) return undefined;
  early.delete(path);
  return request.arrived as { value: T; at: number };
}

/** The early answer for `path` (once, while fresh), or a new GET. */
export function getEarlyOr<T>(path: string, options?: Omit<RequestOptions, 'body'>): Promise<T> {
  const started = early.get(path);
  early.delete(path);
  if (started && Date.now() - started.at < FRESH_MS) return started.response as Promise<T>;
  return api.get<T>(path, options);
}
