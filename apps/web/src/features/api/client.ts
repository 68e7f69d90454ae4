/**
 * The one way the web app talks HTTP to the server (docs/contract.md §7, §8).
 *
 * - Base `/api`; JSON in and out; `Accept-Language` from the stored locale.
 * - `Authorization: Bearer <token>` on every call except the public auth calls below.
 * - Success is HTTP 200 unless the caller names another status (`expect: 201`).
 * - Failure: the loading flag is cleared; a 401 logs out; otherwise the error key from
 *   `{errors:{msg}}` (or the body) is pushed to the error dialog; no response at all becomes
 *   SERVER_TIMEOUT_CONNECTION_ERROR. The promise then rejects with an `ApiError`.
 */
import { setErrorMessage, setLoading } from '../app-state';
import { storedLocale } from '../locale';
import { endRevokedSession, useSession } from '../session';

export const API_BASE = '/api';

/** Calls that must never carry the bearer token (docs/contract.md §7). */
const PUBLIC_PATHS = ['/login', '/forgot', '/register', '/reset'];

/** Generous, so slow servers still answer; a hung request must not spin the loading dialog forever. */
const REQUEST_TIMEOUT_MS = 30_000;

export class ApiError extends Error {
  constructor(
    /** HTTP status; 0 when no response arrived. */
    readonly status: number,
    /** Error key (docs/contract.md §8) or the raw body text. */
    readonly key: string,
    readonly body: unknown,
  ) {
    super(key);
    this.name = 'ApiError';
  }
}

export type QueryValue = string | number | boolean | undefined | null;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** Status that counts as success; default 200. */
  expect?: number | number[];
  /** Leave the error dialog alone (the caller shows the failure its own way). */
  silent?: boolean;
  signal?: AbortSignal;
}

function isPublicPath(path: string): boolean {
  const bare = path.split('?')[0].replace(/\/+$/, '');
  return PUBLIC_PATHS.includes(bare);
}

function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const url = `${API_BASE}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${url}${url.includes('?') ? '&' : '?'}${qs}` : url;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The message key of a refused call: `errors.msg`, else the body itself, else a generic ERROR. */
export function errorKeyOf(body: unknown): string {
  if (body && typeof body === 'object' && 'errors' in body) {
    const msg = (body as { errors?: { msg?: unknown } }).errors?.msg;
    if (typeof msg === 'string' && msg) return msg;
  }
  if (typeof body === 'string' && body.trim()) return body.trim();
  return 'ERROR';
}

/** A 401 ends the session the call was sent with (endRevokedSession). */
function fail(error: ApiError, silent: boolean | undefined, sentToken: string | null): never {
  setLoading(false);
  if (error.status === 401) {
    endRevokedSession(sentToken);
  } else if (!silent) {
    setErrorMessage(error.key);
  }
  throw error;
}

export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Accept-Language': storedLocale(),
  };
  const { token } = useSession.getState();
  if (token && !isPublicPath(path)) headers.Authorization = `Bearer ${token}`;
  let payload: BodyInit | undefined;
  if (options.body instanceof FormData) {
    payload = options.body;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(options.body);
  }
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;

  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), { method, headers, body: payload, signal });
  } catch (cause) {
    // The caller aborted on purpose: not a server problem, nothing to show.
    if (options.signal?.aborted) throw cause;
    return fail(new ApiError(0, 'SERVER_TIMEOUT_CONNECTION_ERROR', null), options.silent, token);
  }
  const body = await readBody(response).catch(() => null);
  const expected = options.expect ?? 200;
  const ok = Array.isArray(expected) ? expected.includes(response.status) : response.status === expected;
  if (!ok) return fail(new ApiError(response.status, errorKeyOf(body), body), options.silent, token);
  return body as T;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('POST', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PATCH', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PUT', path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
};
