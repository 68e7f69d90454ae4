/**
 * Session tokens: HS256 JWTs valid TOKEN_VALIDITY_MINUTES. The secret comes from JWT_SECRET or
 * is generated once and kept in the data directory, so restarts keep sessions valid.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TOKEN_VALIDITY_MINUTES } from '@openpug/shared';
import { jwtVerify, SignJWT } from 'jose';

export interface TokenClaims {
  userId: string;
  /** Expiry, epoch ms. */
  expiresAt: number;
}

export interface Tokens {
  sign(userId: string): Promise<{ token: string; expiresAt: number }>;
  /** The claims, or null for any invalid, tampered or expired token. */
  verify(token: string): Promise<TokenClaims | null>;
  /** HMAC key for other short-lived signed values (Steam tickets, one-time links). */
  readonly secret: Uint8Array;
}

export function createTokens(secret: string | Uint8Array, now: () => number = Date.now): Tokens {
  const key = typeof secret === 'string' ? new TextEncoder().encode(secret) : secret;
  return {
    secret: key,
    async sign(userId) {
      const expiresAt = now() + TOKEN_VALIDITY_MINUTES * 60_000;
      const token = await new SignJWT({ typ: 'session' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(userId)
        .setIssuedAt(Math.floor(now() / 1000))
        .setExpirationTime(Math.floor(expiresAt / 1000))
        .sign(key);
      return { token, expiresAt };
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          currentDate: new Date(now()),
        });
        if (payload.typ !== 'session' || typeof payload.sub !== 'string' || !payload.exp) return null;
        return { userId: payload.sub, expiresAt: payload.exp * 1000 };
      } catch {
        return null;
      }
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
