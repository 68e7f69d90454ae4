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
import { jwtVerify, SignJWT } from 'jose';

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
  // Verified with a CryptoKey imported once: given the raw bytes, jose imports the key again on
  // every call, a third of a verification's cost, and every API call and socket sign-in verifies
  // (bench/RESULTS.md, session 13).
  // Imported at the first verification, inside its try: a key WebCrypto refuses is a refused token.
  let verifyKey: ReturnType<typeof crypto.subtle.importKey> | undefined;
  return {
    secret: key,
    async sign(userId, generation = 0) {
      const expiresAt = now() + TOKEN_VALIDITY_MINUTES * 60_000;
      // A random jti: two sign-ins in the same second get different tokens, so a password change
      // that spares the caller's own sockets (by token) spares no other session.
      const token = await new SignJWT({ typ: 'session', gen: generation })
        .setProtectedHeader({ alg: 'HS256' })
        .setJti(randomUUID())
        .setSubject(userId)
        .setIssuedAt(Math.floor(now() / 1000))
        .setExpirationTime(Math.floor(expiresAt / 1000))
        .sign(key);
      return { token, expiresAt };
    },
    async verify(token) {
      try {
        verifyKey ??= crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
        const { payload } = await jwtVerify(token, await verifyKey, {
          algorithms: ['HS256'],
          currentDate: new Date(now()),
        });
        if (payload.typ !== 'session' || typeof payload.sub !== 'string' || !payload.exp) return null;
        // Tokens from before session generations existed carry none: generation 0.
        const gen = payload.gen ?? 0;
        if (typeof gen !== 'number' || !Number.isSafeInteger(gen) || gen < 0) return null;
        return { userId: payload.sub, expiresAt: payload.exp * 1000, generation: gen };
      } catch {
        return null;
      }
    },
  };
}

/**
 * The account's current session generation, or null when the account does not exist. Errors
 * (a database outage) propagate: they must not look like a bad token, which logs the web out.
 */
export type SessionGenerationLookup = (userId: string) => Promise<number | null>;

/** Tokens whose `verify` also refuses tokens of an older session generation or a deleted account. */
export function withSessionCheck(tokens: Tokens, currentGeneration: SessionGenerationLookup): Tokens {
  return {
    secret: tokens.secret,
    sign: (userId, generation) => tokens.sign(userId, generation),
    async verify(token) {
      const claims = await tokens.verify(token);
      if (!claims) return null;
      const generation = await currentGeneration(claims.userId);
      return generation !== null && generation === claims.generation ? claims : null;
    },
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
