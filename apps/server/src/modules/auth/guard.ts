/**
 * Bearer-token guard. `request.userId` is set for a valid token; routes that need a user add
 * `onRequest: requireAuth` (or `preValidation`), so an unauthenticated call is a 401 before its body is validated. An invalid or expired token on such a route is a 401, which the
 * web answers by logging out (docs/contract.md §8).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../../lib/errors';
import type { UserRow } from '../accounts/service';
import type { SessionTokens } from './tokens';

declare module 'fastify' {
  interface FastifyRequest {
    userId: string | null;
    /** Set when a bearer token was sent but did not verify. */
    badToken: boolean;
    /** The signed-in user's row, read by the token's session check (installAuthGuard). */
    user: UserRow | null;
  }
}

export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  return m ? m[1] : null;
}

export function installAuthGuard(app: FastifyInstance, tokens: SessionTokens<UserRow>): void {
  app.decorateRequest('userId', null);
  app.decorateRequest('badToken', false);
  app.decorateRequest('user', null);
  // A callback hook: a request without a token (every public read) costs no promise here.
  app.addHook('onRequest', (request, _reply, done) => {
    const token = bearerToken(request.headers.authorization);
    if (!token) return done();
    tokens.verifySession(token).then((session) => {
      if (session) {
        request.userId = session.claims.userId;
        request.user = session.account;
      } else request.badToken = true;
      done();
    }, done);
  });
}

/**
 * The request's user, as the token's session check read it (installAuthGuard): no second read.
 * No token is 401 UNAUTHORIZED; a bad token, or a valid one of a deleted account or an older
 * session, is 401 BAD_TOKEN, so the web logs out.
 */
export function currentUser(request: FastifyRequest): UserRow {
  if (!request.userId || !request.user) throw unauthorized(request.badToken ? 'BAD_TOKEN' : 'UNAUTHORIZED');
  return request.user;
}

export async function requireAuth(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  currentUser(request);
}

/** The authenticated user's id; only valid behind requireAuth. */
export function currentUserId(request: FastifyRequest): string {
  if (!request.userId) throw unauthorized();
  return request.userId;
}

/** Admin-only routes: 401 without a valid token, 403 UNAUTHORIZED for a USER (checked in the database). */
export async function requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  await requireAuth(request, reply);
  if (request.user?.role !== 'ADMIN') throw forbidden('UNAUTHORIZED');
}
