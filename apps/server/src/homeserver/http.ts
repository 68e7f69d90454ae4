/** Request helpers shared by the homeserver's route files. */
import type { FastifyRequest } from 'fastify';
import type { Homeserver } from './context';
import { MatrixError, mxBadJson, mxForbidden, mxMissingToken, mxUnknownToken } from './errors';
import type { Json } from './events';
import { type Session, sessionForToken } from './users';

/** The caller's session from `Authorization: Bearer` or `?access_token=`; 401 otherwise. */
export async function auth(hs: Homeserver, request: FastifyRequest): Promise<Session> {
  const header = request.headers.authorization;
  const query = (request.query ?? {}) as Record<string, unknown>;
  const token = header?.startsWith('Bearer ')
    ? header.slice(7).trim()
    : typeof query.access_token === 'string'
      ? query.access_token
      : null;
  if (!token) throw mxMissingToken();
  const session = await sessionForToken(hs, token);
  if (!session) throw mxUnknownToken();
  return session;
}

/** The JSON body as an object (M_BAD_JSON for arrays, strings, numbers). */
export function body(request: FastifyRequest): Json {
  const b = request.body ?? {};
  if (typeof b !== 'object' || Array.isArray(b) || Buffer.isBuffer(b))
    throw mxBadJson('Content must be a JSON object.');
  return b as Json;
}

export const params = (request: FastifyRequest) => request.params as Record<string, string>;
export const query = (request: FastifyRequest) => (request.query ?? {}) as Record<string, string | undefined>;

/** Per-user endpoints: only the user themself. */
export function requireSelf(session: Session, userId: string): void {
  if (session.userId !== userId) throw mxForbidden('Cannot access data of other users');
}

export function requireString(v: unknown, name: string): string {
  if (v === undefined || v === null)
    throw new MatrixError(400, 'M_MISSING_PARAM', `Missing parameter: ${name}`);
  if (typeof v !== 'string') throw mxBadJson(`${name} must be a string`);
  return v;
}
