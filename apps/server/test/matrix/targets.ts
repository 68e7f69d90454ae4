// biome-ignore-all lint/suspicious/noExplicitAny: Matrix JSON answers are inspected loosely in black-box tests.
/**
 * Homeserver targets for the Matrix suites: the embedded homeserver (a listening test app),
 * always; Synapse when SYNAPSE_URL and SYNAPSE_SHARED_SECRET are set (see scripts/synapse.sh).
 * Users are registered through the shared-secret admin API with random names, so Synapse's
 * database may be reused between runs.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { embeddedSharedSecret } from '../../src/homeserver';
import { createTestApp, type TestApp } from '../helpers';

export interface Target {
  name: string;
  url: string;
  secret: string;
  close(): Promise<void>;
}

export interface MatrixUser {
  userId: string;
  accessToken: string;
  deviceId: string;
  password: string;
}

export interface TargetSpec {
  name: string;
  start(): Promise<Target>;
}

export function targets(): TargetSpec[] {
  const list: TargetSpec[] = [
    {
      name: 'embedded',
      async start() {
        const t: TestApp = await createTestApp();
        const url = await t.listen();
        return {
          name: 'embedded',
          url,
          secret: embeddedSharedSecret(t.app.ctx.config),
          close: () => t.close(),
        };
      },
    },
  ];
  const synapse = process.env.SYNAPSE_URL;
  const secret = process.env.SYNAPSE_SHARED_SECRET;
  if (synapse && secret) {
    list.push({
      name: 'synapse',
      start: async () => ({ name: 'synapse', url: synapse, secret, close: async () => {} }),
    });
  }
  return list;
}

export interface Res {
  status: number;
  json: Record<string, any>;
  bytes: Buffer;
  headers: Headers;
}

/** One HTTP call; `raw` sends the body as is (bytes or a malformed string). */
export async function call(
  target: Target,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; raw?: Buffer | string; contentType?: string } = {},
): Promise<Res> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: Buffer | string | undefined;
  if (opts.raw !== undefined) {
    body = opts.raw;
    headers['content-type'] = opts.contentType ?? 'application/json';
  } else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(target.url + path, { method, headers, body });
  const bytes = Buffer.from(await res.arrayBuffer());
  let json: Record<string, any> = {};
  if ((res.headers.get('content-type') ?? '').includes('json')) {
    try {
      json = JSON.parse(bytes.toString('utf8'));
    } catch {}
  }
  return { status: res.status, json, bytes, headers: res.headers };
}

export const enc = encodeURIComponent;

export async function registerUser(target: Target, prefix = 'u', admin = false): Promise<MatrixUser> {
  return registerNamedUser(target, `${prefix}${randomBytes(5).toString('hex')}`, admin);
}

/** A user named like the product's accounts: the local part is a product user id (a UUID). */
export const registerProductUser = (target: Target) => registerNamedUser(target, randomUUID());

export async function registerNamedUser(
  target: Target,
  username: string,
  admin = false,
): Promise<MatrixUser> {
  const password = randomBytes(12).toString('hex');
  const { json: n } = await call(target, 'GET', '/_synapse/admin/v1/register');
  const mac = createHmac('sha1', target.secret)
    .update(`${n.nonce}\0${username}\0${password}\0${admin ? 'admin' : 'notadmin'}`)
    .digest('hex');
  const r = await call(target, 'POST', '/_synapse/admin/v1/register', {
    body: { nonce: n.nonce, username, password, admin, mac },
  });
  if (r.status !== 200) throw new Error(`register failed: ${r.status} ${JSON.stringify(r.json)}`);
  return { userId: r.json.user_id, accessToken: r.json.access_token, deviceId: r.json.device_id, password };
}

export const serverOf = (userId: string) => userId.slice(userId.indexOf(':') + 1);

/** A small PNG made with sharp (red square with a blue half). */
export async function testPng(width = 200, height = 120): Promise<Buffer> {
  const sharp = (await import('sharp')).default;
  return sharp({ create: { width, height, channels: 3, background: '#c00' } })
    .png()
    .toBuffer();
}
