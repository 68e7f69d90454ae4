/**
 * Session tokens: HS256 JWTs valid TOKEN_VALIDITY_MINUTES. The secret comes from JWT_SECRET or
 * is generated once and kept in the data directory, so restarts keep sessions valid.
 *
 * Each token carries the account's session generation (`gen`, 0 when absent). A password change
 * or reset bumps the account's generation, so every token issued before it stops verifying — on
 * HTTP and at socket sign-in alike — once the app wraps its tokens with `withSessionCheck`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TOKEN_VALIDITY_MINUTES } from '@openpug/shared';
import { createSigner, createVerifier } from 'fast-jwt';

export interface TokenClaims {
  userId: string;
  /** Expiry, epoch ms. */
  expiresAt: number;
  /** The account's session generation when the token was issued. */
  generation: number;
}

export interface Tokens {
  /** A session token for the user at session generation `generation` (default 0). */
  sign(userId: string, generation?: number): Promise<{ token: string; expiresAt: number }>;
  /**
   * The claims, or null for any invalid, tampered or expired token — and, behind
   * `withSessionCheck`, for a token of an older session generation or of a deleted account.
   */
  verify(token: string): Promise<TokenClaims | null>;
  /** HMAC key for other short-lived signed values (Steam tickets, one-time links). */
  readonly secret: Uint8Array;
}

export function createTokens(secret: string | Uint8Array, now: () => number = Date.now): Tokens {
  const key = typeof secret === 'string' ? new TextEncoder().encode(secret) : secret;
  // fast-jwt (the library @fastify/jwt stands on) rather than jose: it checks the HMAC with
  // node:crypto, 14–18 µs a token here against jose's 130–150 µs through WebCrypto, and every API
  // call and every socket sign-in verifies one (bench/RESULTS.md, session 13). Times are ours:
  // the verifier's clock is fixed when it is made, so expiry is checked below against `now`.
  const hmacKey = Buffer.from(key);
  const signer = createSigner({ key: hmacKey, algorithm: 'HS256', noTimestamp: true });
  const verifier = createVerifier({ key: hmacKey, algorithms: ['HS256'], ignoreExpiration: true });
  return {
    secret: key,
    async sign(userId, generation = 0) {
      const expiresAt = now() + TOKEN_VALIDITY_MINUTES * 60_000;
      // A random jti: two sign-ins in the same second get different tokens, so a password change
      // that spares the caller's own sockets (by token) spares no other session.
      const token: string = signer({
        typ: 'session',
        gen: generation,
        jti: randomUUID(),
        sub: userId,
        iat: Math.floor(now() / 1000),
        exp: Math.floor(expiresAt / 1000),
      });
      return { token, expiresAt };
    },
    async verify(token) {
      let payload: Record<string, unknown>;
      try {
        payload = verifier(token);
      } catch {
        return null; // malformed, another algorithm, a wrong signature
      }
      const { typ, sub, exp } = payload;
      if (typ !== 'session' || typeof sub !== 'string' || typeof exp !== 'number') return null;
      // Expired once `exp` (seconds) is reached, as jose and RFC 7519 §4.1.4 count it.
      if (exp * 1000 <= now()) return null;
      // Tokens from before session generations existed carry none: generation 0.
      const gen = payload.gen ?? 0;
      if (typeof gen !== 'number' || !Number.isSafeInteger(gen) || gen < 0) return null;
      return { userId: sub, expiresAt: exp * 1000, generation: gen };
    },
  };
}

/**
 * Tokens whose `verify` also refuses tokens of an older session generation or of a deleted
 * account, and whose `verifySession` gives the account row that check read.
 */
export interface SessionTokens<Account> extends Tokens {
  /**
   * `verify` with the account as the check read it: the HTTP guard keeps it as the request's user,
   * so an authenticated call reads its account once. It had read it three times (the check,
   * `requireAuth`, the route): 29,011 of a two-instance bench run's 139,499 statements (issue 20
   * target 5, bench/RESULTS.md session 25).
   */
  verifySession(token: string): Promise<{ claims: TokenClaims; account: Account } | null>;
}

/**
 * Wraps `tokens` with the session check. `accountOf` gives the account, or null when it does not
 * exist; its errors (a database outage) propagate: they must not look like a bad token, which
 * logs the web out.
 */
export function withSessionCheck<Account extends { sessionGeneration: number }>(
  tokens: Tokens,
  accountOf: (userId: string) => Promise<Account | null>,
): SessionTokens<Account> {
  const verifySession = async (token: string) => {
    const claims = await tokens.verify(token);
    if (!claims) return null;
    const account = await accountOf(claims.userId);
    return account && account.sessionGeneration === claims.generation ? { claims, account } : null;
  };
  return {
    secret: tokens.secret,
    sign: (userId, generation) => tokens.sign(userId, generation),
    verifySession,
    verify: async (token) => (await verifySession(token))?.claims ?? null,
  };
}

/** JWT_SECRET if given, else a random secret generated once into `$DATA_DIR/jwt-secret`. */
export function loadJwtSecret(dataDir: string, fromEnv?: string): string {
  if (fromEnv) return fromEnv;
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
