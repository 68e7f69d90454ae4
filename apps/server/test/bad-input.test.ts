/**
 * Robustness sweep over the whole HTTP API (docs/contract.md §8): every /api route, collected as it registers,
 * gets hostile input — wrong types, missing fields, bad JSON, huge strings, odd ids — and must
 * answer a catalogue key with a 4xx status, never a 500. Routes that need a session must refuse a
 * call without one (401), admin routes a player (403).
 */
import { randomUUID } from 'node:crypto';
import { ERROR_KEYS } from '@openpug/shared';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { requireAdmin } from '../src/modules/auth/guard';
import { friendRequests } from '../src/modules/friends/schema';
import { pushSubscriptions } from '../src/modules/mobile/schema';
import { bearer, createTestApp, createTestUser, type TestApp, type TestUser } from './helpers';
import { type JsonSchema, jsonSchemaOf, sample } from './route-samples';

interface Route {
  method: string;
  url: string;
  schema: { body?: z.ZodType; params?: z.ZodType; querystring?: z.ZodType };
  /** The route's own onRequest/preValidation/preHandler hooks. */
  guards: unknown[];
}

const catalogue = new Set<string>(ERROR_KEYS);

/** Routes anyone may call (docs/contract.md §6, §7): sign-in flows, public pages' data, the game server's callbacks. */
const PUBLIC = new Set([
  'GET /api/health',
  'GET /api/about',
  'POST /api/register',
  'POST /api/login',
  'POST /api/verify',
  'POST /api/forgot',
  'POST /api/reset',
  'GET /api/steam',
  'GET /api/steam/return',
  'POST /api/steam/login',
  'GET /api/users/:id',
  'GET /api/users/ranking',
  'GET /api/users/:id/stats',
  'GET /api/users/:id/highlights',
  'GET /api/users/:id/drops',
  'GET /api/users/matrixavatar/:sender',
  'GET /api/seasons/:id',
  'GET /api/match',
  'GET /api/match/:id',
  'GET /api/match/user/:userId',
  'GET /api/match/user/:userId/',
  'GET /api/mobile/exchange',
  'POST /api/mobile/exchange',
  'GET /api/push/vapid',
  // Authenticated by the game server's per-match key, not a user session.
  'GET /api/gameservers/config/:matchId',
  'POST /api/gameservers/events/:matchId',
  // Meta's status webhook: the GET handshake checks WHATSAPP_VERIFY_TOKEN (403 otherwise), each
  // POST the X-Hub-Signature-256 of its body (401 otherwise).
  'GET /api/whatsapp/webhook',
  'POST /api/whatsapp/webhook',
  // The Discord bot authenticates with its shared secret.
  'POST /api/discord/link',
  // The admin CLI's backup of a running PGlite server: loopback and a per-start token from
  // DATA_DIR only; anything else gets 404 so it does not show it exists (backup.test.ts).
  'GET /api/internal/backup',
  // Dev tools (DEV_TOOLS only, never in production). The outbox answers loopback clients (these
  // injects) without a session; a remote one needs an admin's token (accounts.test.ts).
  'GET /api/dev/outbox',
  'GET /api/dev/openid/login',
  'POST /api/dev/openid/login',
  'GET /api/dev/openid/approve',
  'POST /api/dev/voice/identities',
  'DELETE /api/dev/voice/identities/:id',
  'POST /api/dev/simulator/presence',
]);

/** Admin-only routes: a player's token is refused with 403. */
const ADMIN = new Set([
  'PUT /api/about',
  'PUT /api/seasons/:id',
  'GET /api/drops',
  'GET /api/drops/awards',
  'POST /api/drops/',
  'PATCH /api/drops/:id',
  'DELETE /api/drops/:id',
  'GET /api/drops/engine',
  'PUT /api/drops/engine',
  'POST /api/drops/engine/roll',
  'PATCH /api/users/:id/role',
  'POST /api/admin/matches/:id/cancel',
  'POST /api/admin/matches/:id/move',
  'POST /api/admin/matches/:id/swap',
  'POST /api/admin/matches/:id/result',
  'POST /api/admin/matches/:id/correct',
  'POST /api/admin/matches/:id/void',
  'GET /api/admin/users/:id/cooldowns',
  'POST /api/admin/users/:id/cooldowns/lift',
  'GET /api/admin/users/:id/sanctions',
  'POST /api/admin/users/:id/sanctions',
  'POST /api/admin/sanctions/:id/lift',
  'GET /api/admin/audit',
  'GET /api/admin/arena',
  'POST /api/admin/arena',
  'PATCH /api/admin/arena/:id',
  'DELETE /api/admin/arena/:id',
  'GET /api/admin/calibration',
  'GET /api/admin/reports',
  'POST /api/admin/reports/:id/resolve',
]);

const HUGE = 'x'.repeat(100_000);
/** Values of the wrong type (or absurd) for any field. */
const WRONG_VALUES: Array<[string, unknown]> = [
  ['number', 12345],
  ['negative', -1],
  ['float', 1.5],
  ['empty array', []],
  ['array', ['a', 'b']],
  ['object', { a: 1 }],
  ['operator object', { $gt: '' }],
  ['null', null],
  ['boolean', false],
  ['huge string', HUGE],
  ['NUL string', 'a\u0000b'],
];

/** Raw bodies: each is [label, content-type, payload]. */
const RAW_BODIES: Array<[string, string | undefined, string]> = [
  ['no body', undefined, ''],
  ['empty JSON body', 'application/json', ''],
  ['malformed JSON', 'application/json', '{"a":'],
  ['JSON array', 'application/json', '[1,2]'],
  ['JSON string', 'application/json', '"text"'],
  ['JSON number', 'application/json', '42'],
  ['JSON null', 'application/json', 'null'],
  ['empty object', 'application/json', '{}'],
  ['__proto__ key', 'application/json', '{"__proto__":{"role":"ADMIN"}}'],
  ['text/plain', 'text/plain', 'hello'],
  ['over the body limit', 'application/json', JSON.stringify({ a: 'x'.repeat(1_100_000) })],
  ['deeply nested', 'application/json', `${'['.repeat(200_000)}${']'.repeat(200_000)}`],
  ['NUL in a key', 'application/json', '{"a\\u0000":1}'],
];

/** Path segments for an id: missing, malformed, absurd. */
const ODD_IDS: Array<[string, string]> = [
  ['unknown uuid', randomUUID()],
  ['malformed', 'not-an-id'],
  ['number', '12345'],
  ['negative', '-1'],
  ['NUL', '%00'],
  ['quote', '%27%20OR%201%3D1--'],
  ['long', 'x'.repeat(190)],
  ['too long', 'x'.repeat(300)],
  ['unicode', '%F0%9F%92%A9'],
  ['bad escape', '%E0%A4%A'],
];

const ODD_QUERY_VALUES: Array<[string, string]> = [
  ['array', 'a&{k}=b'],
  ['huge', 'x'.repeat(5000)],
  ['negative', '-1'],
  ['NaN', 'NaN'],
  ['overflow', '1e309'],
  ['big int', '99999999999999999999'],
  ['json', '%7B%22%24gt%22%3A%22%22%7D'],
  ['NUL', '%00'],
  ['empty', ''],
];

/** Pages for a browser popup, not API answers: a refusal there is an HTML page. */
const HTML_PAGES = new Set(['GET /api/steam/return']);

/** Path parameters that are free text by design (the identicon of any Matrix sender). */
const FREE_FORM_PARAMS = new Set(['GET /api/users/matrixavatar/:sender :sender']);

const invalid = Symbol('not JSON');
function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return invalid;
  }
}

/** The query object Fastify hands the validator: repeated keys become arrays. */
function parseQuery(query: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(query)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : [prev, v].flat();
  }
  return out;
}

let t: TestApp;
const routes: Route[] = [];
let player: TestUser;
let admin: TestUser;
let other: TestUser;
const failures: string[] = [];

function collect(route: RouteOptions): void {
  for (const method of [route.method].flat()) {
    if (method === 'HEAD' || method === 'OPTIONS') continue;
    routes.push({
      method,
      url: route.url,
      schema: (route.schema ?? {}) as Route['schema'],
      guards: [route.onRequest, route.preValidation, route.preHandler].flat().filter(Boolean),
    });
  }
}

const key = (r: Route) => `${r.method} ${r.url}`;
const apiRoutes = () => routes.filter((r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs'));

function fillPath(url: string, value: (param: string) => string): string {
  return url.replace(/:(\w+)/g, (_, name: string) => value(name));
}

/** Checks one answer: never 5xx; a refusal carries a catalogue key. Returns the status. */
function check(label: string, res: LightMyRequestResponse, expectRefusal: boolean): number {
  if (res.statusCode >= 500) {
    failures.push(`${label}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    return res.statusCode;
  }
  const isPage = String(res.headers['content-type']).startsWith('text/html');
  if (res.statusCode >= 400 && isPage && HTML_PAGES.has(label.split(' ', 2).join(' '))) return res.statusCode;
  if (res.statusCode >= 400) {
    let msg: unknown;
    try {
      msg = (res.json() as { errors?: { msg?: unknown } }).errors?.msg;
    } catch {
      msg = undefined;
    }
    if (typeof msg !== 'string' || !catalogue.has(msg))
      failures.push(`${label}: ${res.statusCode} without a catalogue key: ${res.body.slice(0, 200)}`);
  } else if (expectRefusal) {
    failures.push(`${label}: accepted with ${res.statusCode}: ${res.body.slice(0, 200)}`);
  }
  return res.statusCode;
}

beforeAll(async () => {
  t = await createTestApp({ onRoute: collect });
  await t.app.ready();
  player = await createTestUser(t.app);
  other = await createTestUser(t.app);
  admin = await createTestUser(t.app, { role: 'ADMIN' });
});
afterAll(() => t.close());

describe('every /api route', () => {
  it('is collected', () => {
    expect(apiRoutes().length).toBeGreaterThan(50);
  });

  it('lists every route guarded by requireAdmin as an admin route, so the 403 check covers it', () => {
    const guarded = apiRoutes().filter((r) => r.guards.includes(requireAdmin));
    expect(guarded.length).toBeGreaterThan(0);
    expect(guarded.map(key).filter((k) => !ADMIN.has(k))).toEqual([]);
  });

  it('refuses a call without a session (401), and a player on admin routes (403)', async () => {
    failures.length = 0;
    for (const route of apiRoutes()) {
      const body = route.schema.body ? sample(jsonSchemaOf(route.schema.body) as JsonSchema) : undefined;
      const url = fillPath(route.url, () => randomUUID());
      const inject = (headers: Record<string, string>) =>
        t.app.inject({ method: route.method as 'GET', url, headers, payload: body as object });
      if (!PUBLIC.has(key(route))) {
        for (const [label, headers] of [
          ['no token', {}],
          ['bad token', bearer('not.a.token')],
        ] as const) {
          const status = check(`${key(route)} ${label}`, await inject(headers), true);
          if (status !== 401) failures.push(`${key(route)} ${label}: ${status}, expected 401`);
        }
        // The session is checked before the body: a stranger learns nothing about the schema.
        if (route.schema.body) {
          const res = await t.app.inject({ method: route.method as 'GET', url, payload: { '': [null] } });
          const status = check(`${key(route)} no token, bad body`, res, true);
          if (status !== 401) failures.push(`${key(route)} no token, bad body: ${status}, expected 401`);
        }
      }
      if (ADMIN.has(key(route))) {
        const status = check(`${key(route)} player`, await inject(bearer(player.token)), true);
        if (status !== 403) failures.push(`${key(route)} player: ${status}, expected 403`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers hostile bodies, ids and queries with a catalogue key, never a 500', async () => {
    failures.length = 0;
    for (const route of apiRoutes()) {
      const headers = bearer(ADMIN.has(key(route)) ? admin.token : player.token);
      const { body: zodBody, querystring: zodQuery } = route.schema;
      const bodySchema = jsonSchemaOf(zodBody);
      const base = bodySchema ? (sample(bodySchema) as Record<string, unknown>) : undefined;
      // The sample must pass, or mutating one field would not test that field.
      if (zodBody && !zodBody.safeParse(base).success)
        failures.push(`${key(route)}: no valid sample body; add a hint to SAMPLE_BY_NAME`);
      /** The route must refuse a body its own schema refuses. */
      const bodyRefused = (payload: unknown) => zodBody !== undefined && !zodBody.safeParse(payload).success;
      const unknownIds = fillPath(route.url, () => randomUUID());
      const send = (url: string, payload?: unknown, extra: Record<string, string> = {}) =>
        t.app.inject({
          method: route.method as 'GET',
          url,
          headers: { ...headers, ...extra },
          payload: payload as string,
        });

      if (route.method !== 'GET' && route.method !== 'DELETE') {
        for (const [label, type, payload] of RAW_BODIES) {
          const res = await send(unknownIds, payload, type ? { 'content-type': type } : {});
          const parsed = type === 'application/json' ? tryJson(payload) : type ? invalid : undefined;
          check(
            `${key(route)} body ${label}`,
            res,
            parsed === invalid ? zodBody !== undefined : bodyRefused(parsed),
          );
        }
      }
      if (bodySchema?.properties && base) {
        for (const field of Object.keys(bodySchema.properties)) {
          for (const [label, value] of WRONG_VALUES) {
            const payload = { ...base, [field]: value };
            check(
              `${key(route)} body.${field} ${label}`,
              await send(unknownIds, payload),
              bodyRefused(payload),
            );
          }
          const { [field]: _, ...rest } = base;
          check(`${key(route)} body.${field} missing`, await send(unknownIds, rest), bodyRefused(rest));
        }
      }
      for (const param of route.url.match(/:(\w+)/g) ?? []) {
        const freeForm = FREE_FORM_PARAMS.has(`${key(route)} ${param}`);
        for (const [label, value] of ODD_IDS) {
          const url = fillPath(route.url, (name) => (`:${name}` === param ? value : randomUUID()));
          // An id that is well-formed but unknown may be an empty list or an idempotent no-op.
          const refuses = !freeForm && label !== 'unknown uuid';
          check(`${key(route)} ${param} ${label}`, await send(url, base), refuses);
        }
        for (const someone of [other, admin]) {
          const url = fillPath(route.url, (name) => (`:${name}` === param ? someone.id : randomUUID()));
          check(`${key(route)} ${param} = another user's id`, await send(url, base), false);
        }
      }
      const querySchema = jsonSchemaOf(zodQuery);
      for (const field of Object.keys(querySchema?.properties ?? {})) {
        for (const [label, value] of ODD_QUERY_VALUES) {
          const query = `${field}=${value.replace('{k}', field)}`;
          const refused = zodQuery !== undefined && !zodQuery.safeParse(parseQuery(query)).success;
          check(`${key(route)} ?${field} ${label}`, await send(`${unknownIds}?${query}`, base), refused);
        }
      }
      check(
        `${key(route)} unknown query`,
        await send(`${unknownIds}?__proto__=x&constructor=y`, base),
        false,
      );
    }
    expect(failures).toEqual([]);
  }, 120_000); // a sweep over every route: grows with the API (24 s alone today)
});

describe("another user's objects", () => {
  const api = (user: TestUser, method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: bearer(user.token) });

  it('a friend request is answered or cancelled only by its two users', async () => {
    const [ann, bob, carl] = [
      await createTestUser(t.app),
      await createTestUser(t.app),
      await createTestUser(t.app),
    ];
    const request = (await api(ann, 'POST', '/api/friends', { recipient: bob.id })).json() as { _id: string };
    const url = `/api/friends/${request._id}`;
    for (const [user, method, payload] of [
      [carl, 'PATCH', { accepted: true }],
      [ann, 'PATCH', { accepted: true }],
      [carl, 'DELETE', undefined],
    ] as const) {
      const res = await api(user, method, url, payload);
      expect([403, 404], `${method} by ${user === ann ? 'the requester' : 'a stranger'}`).toContain(
        res.statusCode,
      );
      expect(catalogue.has(res.json().errors.msg)).toBe(true);
    }
    const [row] = await t.app.ctx.db.select().from(friendRequests).where(eq(friendRequests.id, request._id));
    expect(row.accepted).toBe(false);
    const removal = await api(carl, 'DELETE', `/api/friends/existing/${ann.id}`);
    expect(removal.statusCode).toBeGreaterThanOrEqual(400);
    expect(removal.statusCode).toBeLessThan(500);
  });

  it('a push subscription is removed only by its owner', async () => {
    const [ann, bob] = [await createTestUser(t.app), await createTestUser(t.app)];
    const endpoint = `https://push.example.test/${randomUUID()}`;
    const keys = { p256dh: 'p'.repeat(20), auth: 'a'.repeat(16) };
    expect((await api(ann, 'POST', '/api/push/subscriptions', { endpoint, keys })).statusCode).toBe(200);
    const res = await api(bob, 'DELETE', '/api/push/subscriptions', { endpoint });
    expect(res.statusCode).toBeLessThan(500);
    const rows = await t.app.ctx.db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, endpoint));
    expect(rows.map((r) => r.userId)).toEqual([ann.id]);
  });
});
