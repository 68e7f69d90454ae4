/**
 * Session tokens: what verifies and what does not, on the app's clock. Tokens an older release
 * signed (with jose, no `typ` header) still verify after the move to fast-jwt.
 */
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createTokens } from './tokens';

const SECRET = 'a-test-secret-of-enough-length-0123456789';

describe('session tokens', () => {
  let nowMs = Date.UTC(2026, 11, 1, 12, 0, 0);
  const tokens = createTokens(SECRET, () => nowMs);

  it('a signed token verifies until its expiry, and not from then on', async () => {
    const { token, expiresAt } = await tokens.sign('user-1', 3);
    expect(await tokens.verify(token)).toEqual({ userId: 'user-1', expiresAt, generation: 3 });
    const signedAt = nowMs;
    nowMs = expiresAt - 1;
    expect(await tokens.verify(token)).not.toBeNull();
    nowMs = expiresAt;
    expect(await tokens.verify(token)).toBeNull();
    nowMs = signedAt;
  });

  it('refuses a changed payload, another secret, alg none and garbage', async () => {
    const { token } = await tokens.sign('user-1');
    const [header, payload, signature] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: 'admin' }),
    ).toString('base64url');
    expect(await tokens.verify(`${header}.${forged}.${signature}`)).toBeNull();
    const other = createTokens('another-secret-of-enough-length-987654321', () => nowMs);
    expect(await other.verify(token)).toBeNull();
    const none = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    expect(await tokens.verify(`${none}.${payload}.`)).toBeNull();
    expect(await tokens.verify('not-a-token')).toBeNull();
    expect(await tokens.verify('')).toBeNull();
  });

  it('refuses tokens that are not sessions or carry a bad generation', async () => {
    const key = new TextEncoder().encode(SECRET);
    const exp = Math.floor(nowMs / 1000) + 600;
    const signed = (claims: Record<string, unknown>) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('user-2')
        .setExpirationTime(exp)
        .sign(key);
    expect(await tokens.verify(await signed({ typ: 'steam' }))).toBeNull();
    expect(await tokens.verify(await signed({ typ: 'session', gen: -1 }))).toBeNull();
    expect(await tokens.verify(await signed({ typ: 'session', gen: 1.5 }))).toBeNull();
    // An older release's token: signed by jose, no generation (0).
    expect(await tokens.verify(await signed({ typ: 'session' }))).toEqual({
      userId: 'user-2',
      expiresAt: exp * 1000,
      generation: 0,
    });
  });
});
