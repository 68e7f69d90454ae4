/**
 * Test helper: a local push service that checks what a real one checks and answers as one does:
 * - `Authorization: vapid t=<ES256 JWT>, k=<public key>` with `aud` = the endpoint's origin and a
 *   `sub` (RFC 8292 §2, §3);
 * - a `TTL` header (RFC 8030 §5.2) and `Urgency` (§5.3); an `aes128gcm` body (RFC 8188), which it
 *   decrypts with the subscription's private key as the browser would (RFC 8291 §3–§4);
 * - 201 Created for an accepted message (RFC 8030 §5); scripted answers for the rest: 404/410 for a
 *   subscription that is gone (§7.3), 429 with Retry-After when it wants fewer messages (§8.4),
 *   400/403/413 for a bad request, VAPID or payload.
 */
import { createDecipheriv, createECDH, createHmac, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { importJWK, jwtVerify } from 'jose';

export interface ReceivedPush {
  path: string;
  ttl: string | undefined;
  urgency: string | undefined;
  encoding: string | undefined;
  /** Result of the VAPID check: the JWT claims, or the reason it failed. */
  vapid: { ok: true; aud: string; sub: string; exp: number; k: string } | { ok: false; reason: string };
  /** The decrypted payload (JSON), or null when decryption failed. */
  payload: unknown;
}

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

export interface FakeBrowser {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  decrypt(body: Buffer): unknown;
}

export async function startFakePushService(
  options: { status?: () => number; retryAfter?: () => string | undefined } = {},
) {
  const received: ReceivedPush[] = [];
  const browsers = new Map<string, { ecdh: ReturnType<typeof createECDH>; auth: Buffer }>();
  let url = '';

  const decrypt = (path: string, body: Buffer): unknown => {
    const b = browsers.get(path);
    if (!b) return null;
    // The aes128gcm header: salt (16), record size (4), idlen (1), keyid = the sender's public key
    // (RFC 8188 §2.1; RFC 8291 §4 puts the application server's ECDH key there).
    const salt = body.subarray(0, 16);
    const idlen = body[20];
    const asPublic = body.subarray(21, 21 + idlen);
    const ciphertext = body.subarray(21 + idlen);
    const uaPublic = b.ecdh.getPublicKey();
    const ecdhSecret = b.ecdh.computeSecret(asPublic);
    // Key and nonce derivation of RFC 8291 §3.3–§3.4 (HKDF with the auth secret, then RFC 8188 §2.2–§2.3).
    const prkKey = hmac(b.auth, ecdhSecret);
    const ikm = hmac(
      prkKey,
      Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic, Buffer.from([1])]),
    );
    const prk = hmac(salt, ikm);
    const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
    const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
    const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
    decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
    const plain = Buffer.concat([
      decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
      decipher.final(),
    ]);
    const end = plain.lastIndexOf(2); // the last record's padding delimiter 0x02 (RFC 8188 §2)
    return JSON.parse(plain.subarray(0, end).toString('utf8'));
  };

  const checkVapid = async (header: string | undefined): Promise<ReceivedPush['vapid']> => {
    // `vapid t=<JWT>, k=<key>` (RFC 8292 §3); the key is an uncompressed P-256 point (§3.2) and the
    // JWT is signed with ES256 (§2).
    const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
    if (!m) return { ok: false, reason: `bad Authorization header: ${header}` };
    const [, jwt, k] = m;
    const pub = Buffer.from(k, 'base64url');
    if (pub.length !== 65 || pub[0] !== 4) return { ok: false, reason: 'k is not an uncompressed P-256 key' };
    const key = await importJWK(
      {
        kty: 'EC',
        crv: 'P-256',
        x: pub.subarray(1, 33).toString('base64url'),
        y: pub.subarray(33).toString('base64url'),
      },
      'ES256',
    );
    try {
      const { payload } = await jwtVerify(jwt, key, { algorithms: ['ES256'] });
      return { ok: true, aud: String(payload.aud), sub: String(payload.sub), exp: Number(payload.exp), k };
    } catch (err) {
      return { ok: false, reason: String(err) };
    }
  };

  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const path = req.url ?? '';
    let payload: unknown = null;
    try {
      payload = decrypt(path, body);
    } catch {
      payload = null;
    }
    received.push({
      path,
      ttl: req.headers.ttl as string | undefined,
      urgency: req.headers.urgency as string | undefined,
      encoding: req.headers['content-encoding'],
      vapid: await checkVapid(req.headers.authorization),
      payload,
    });
    // 201 Created for an accepted message (RFC 8030 §5); a test scripts 404/410 (§7.3), 429 with
    // Retry-After (§8.4) or another refusal.
    const retryAfter = options.retryAfter?.();
    res.writeHead(options.status?.() ?? 201, retryAfter ? { 'retry-after': retryAfter } : {});
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    received,
    /** A browser subscription (keys like PushSubscription.toJSON()). */
    browser(): FakeBrowser {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const path = `/push/${randomBytes(8).toString('hex')}`;
      browsers.set(path, { ecdh, auth });
      return {
        endpoint: `${url}${path}`,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
        decrypt: (b) => decrypt(path, b),
      };
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
