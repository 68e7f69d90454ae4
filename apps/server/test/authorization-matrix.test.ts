/**
 * Authorization matrix (docs/contract.md §6): every route of the built app — collected from
 * Fastify as it registers, product API, embedded homeserver, docs and dev tools alike — called by
 * four callers, with the status each must get:
 *
 * - anonymous: no token;
 * - player: a signed-in USER who owns or takes part in what the route names (their friend request,
 *   match, report, chat room, message, upload);
 * - other: another signed-in USER, with no part in it;
 * - admin: a signed-in ADMIN, also with no part in it.
 *
 * Every caller comes from an outside address (203.0.113.50), as a browser on the internet: the
 * routes that answer loopback clients only (metrics, the dev outbox, the backup) must refuse them.
 * Product routes get the caller's session token, Matrix routes (`/_matrix`, `/_synapse`) the
 * caller's chat access token.
 *
 * MATRIX must list every route: a new route without a row fails the first test, so whoever adds a
 * route decides who may call it. The calls of one row go anonymous → other → admin → player, so
 * the caller expected to succeed comes last on routes that change what they name.
 *
 * The same calls are the private-field scan of every route (docs/contract.md §3, §6; issue 15):
 * every user of the fixture has an e-mail, a TeamSpeak id and, for those who never call (the
 * victims), a phone, set to values that cannot appear by chance; no answer to a caller may hold
 * another user's. Besides the matrix's own calls, every GET row is called again by each caller
 * about the victim (the player's friend and teammate) in place of the user it names. The
 * realistic session (socket events included) is private-fields.test.ts.
 */
import { matrixUserId } from '@openpug/shared';
import type { LightMyRequestResponse, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ensureGlobalRoom, matrixSessionFor } from '../src/modules/chat/service';
import {
  bearer,
  createTestApp,
  createTestUser,
  seedMatch,
  type TestApp,
  type TestUser,
  usingPostgres,
} from './helpers';
import { type JsonSchema, jsonSchemaOf, sample } from './route-samples';

type Caller = 'anonymous' | 'player' | 'other' | 'admin';
/** Expected statuses in the order [anonymous, player, other, admin]. */
type Statuses = [number, number, number, number];

interface Row {
  /** The URL with `{name}` placeholders for the fixture's ids (see `Fixture`). */
  url: string;
  /** The body; default: a valid-looking one generated from the route's body schema. */
  body?: unknown | ((f: Fixture, caller: Caller) => unknown);
  /** A raw body with its content type (uploads). */
  raw?: { type: string; data: Buffer };
  expect: Statuses;
  /** The route exists only on PGlite (the server-pg project has no such route). */
  pgliteOnly?: boolean;
  /** New chat tokens for every caller first (after a logout row ended theirs). */
  freshChatTokens?: boolean;
}

/** Ids the rows name; `{player}` etc. are user ids, `mx…` Matrix ids, the rest objects. */
interface Fixture extends Record<string, string> {}

const OUTSIDE = '203.0.113.50';
const PUSH_KEYS = { p256dh: 'p'.repeat(20), auth: 'a'.repeat(16) };
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

// Shorthands for the common shapes.
const publicRoute = (url: string, status = 200): Row => ({ url, expect: [status, status, status, status] });
const signedIn = (url: string, status = 200, extra: Partial<Row> = {}): Row => ({
  url,
  expect: [401, status, status, status],
  ...extra,
});
const adminOnly = (url: string, status = 200, extra: Partial<Row> = {}): Row => ({
  url,
  expect: [401, 403, 403, status],
  ...extra,
});
/** Matrix: 401 M_MISSING_TOKEN without a token. */
const chat = (url: string, player: number, other: number, admin = other, extra: Partial<Row> = {}): Row => ({
  url,
  expect: [401, player, other, admin],
  ...extra,
});

const MATRIX: Record<string, Row> = {
  // ---- operations, docs, the web shell ----
  'GET /metrics': publicRoute('/metrics', 404),
  'GET /api/health': publicRoute('/api/health'),
  'GET /version.json': publicRoute('/version.json'),
  'GET /api/docs': publicRoute('/api/docs'),
  'GET /api/docs/static/index.html': publicRoute('/api/docs/static/index.html', 302),
  'GET /api/docs/static/swagger-initializer.js': publicRoute('/api/docs/static/swagger-initializer.js'),
  'GET /api/docs/json': publicRoute('/api/docs/json'),
  'GET /api/docs/yaml': publicRoute('/api/docs/yaml'),
  'GET /api/docs/static/*': publicRoute('/api/docs/static/swagger-ui.css'),
  // The admin CLI's backup: loopback and a per-start token only, 404 to anyone else.
  'GET /api/internal/backup': { ...publicRoute('/api/internal/backup', 404), pgliteOnly: true },

  // ---- accounts (sign-up, login and reset flows are for anyone; a session changes nothing) ----
  'POST /api/register': publicRoute('/api/register', 202),
  'POST /api/login': publicRoute('/api/login', 400),
  'GET /api/token': signedIn('/api/token'),
  'POST /api/verify': publicRoute('/api/verify', 404),
  'POST /api/forgot': publicRoute('/api/forgot'),
  'POST /api/reset': publicRoute('/api/reset', 404),
  'GET /api/profile': signedIn('/api/profile'),
  'PATCH /api/profile': signedIn('/api/profile', 200, { body: { locale: 'de' } }),
  'POST /api/profile/changePassword': signedIn('/api/profile/changePassword', 400),
  'GET /api/profile/teamSpeakUsers': signedIn('/api/profile/teamSpeakUsers'),
  'POST /api/profile/linkTeamSpeak': signedIn('/api/profile/linkTeamSpeak', 404),
  // A code nobody asked for: `{success: false}`.
  'POST /api/profile/teamSpeakCode': signedIn('/api/profile/teamSpeakCode'),
  'POST /api/profile/unlinkTeamSpeak': signedIn('/api/profile/unlinkTeamSpeak'),
  'GET /api/steam': publicRoute('/api/steam', 302),
  'GET /api/steam/return': publicRoute('/api/steam/return', 400),
  'POST /api/steam/login': publicRoute('/api/steam/login', 400),
  'POST /api/steam': signedIn('/api/steam', 400),

  // ---- dev tools: outbox for admins from outside; the fake identities for anyone (never in production) ----
  'GET /api/dev/outbox': { url: '/api/dev/outbox', expect: [401, 403, 403, 200] },
  'GET /dev/outbox': { url: '/dev/outbox', expect: [401, 403, 403, 200] },
  'POST /api/dev/simulator/presence': {
    url: '/api/dev/simulator/presence',
    body: (f: Fixture) => ({ userId: f.player, onServer: true }),
    expect: [401, 403, 403, 200],
  },
  'POST /api/dev/voice/identities': publicRoute('/api/dev/voice/identities'),
  'DELETE /api/dev/voice/identities/:id': publicRoute('/api/dev/voice/identities/{unknownId}', 404),
  'GET /api/dev/openid/login': publicRoute('/api/dev/openid/login', 400),
  'GET /api/dev/openid/approve': publicRoute('/api/dev/openid/approve', 422),
  'POST /api/dev/openid/login': publicRoute('/api/dev/openid/login', 200),

  // ---- friends: a request is answered by its recipient, withdrawn by either side ----
  'GET /api/friends': signedIn('/api/friends'),
  'GET /api/friends/requests': signedIn('/api/friends/requests'),
  'POST /api/friends': signedIn('/api/friends', 200, { body: (f: Fixture) => ({ recipient: f.lonely }) }),
  'PATCH /api/friends/:id': {
    url: '/api/friends/{requestToPlayer}',
    body: { accepted: true },
    // Not yours: 404, as for an unknown request (nobody learns which ids exist).
    expect: [401, 200, 404, 404],
  },
  'DELETE /api/friends/:id': { url: '/api/friends/{requestFromPlayer}', expect: [401, 200, 404, 404] },
  'DELETE /api/friends/existing/:userId': {
    url: '/api/friends/existing/{buddy}',
    expect: [401, 200, 404, 404],
  },

  // ---- users, leaderboard, seasons ----
  'GET /api/users': signedIn('/api/users?q=player'),
  'GET /api/users/:id': publicRoute('/api/users/{other}'),
  'GET /api/users/ranking': publicRoute('/api/users/ranking'),
  'GET /api/users/:id/stats': publicRoute('/api/users/{other}/stats'),
  'GET /api/users/:id/highlights': publicRoute('/api/users/{other}/highlights'),
  'GET /api/users/:id/drops': publicRoute('/api/users/{other}/drops'),
  'GET /api/seasons/:id': publicRoute('/api/seasons/{unknownId}', 404),
  'PUT /api/seasons/:id': adminOnly('/api/seasons/season1', 200, {
    body: {
      locale: 'en',
      startsAt: '2026-09-01T00:00:00.000Z',
      endsAt: '2026-12-01T00:00:00.000Z',
      title: 'Season 1',
      description: 'Ten weeks of pugs',
      prizes: 'A knife for the winner',
    },
  }),
  'PATCH /api/users/:id/role': adminOnly('/api/users/{stranger}/role', 200, { body: { role: 'USER' } }),
  'GET /api/users/matrixavatar/:sender': publicRoute('/api/users/matrixavatar/{mxOther}'),

  // ---- queue, matches, game servers ----
  'GET /api/queue': signedIn('/api/queue'),
  'GET /api/match': publicRoute('/api/match'),
  'GET /api/match/:id': publicRoute('/api/match/{match}'),
  'GET /api/match/user/:userId': publicRoute('/api/match/user/{player}'),
  'GET /api/match/user/:userId/': publicRoute('/api/match/user/{player}/'),
  // The game server's callbacks: its per-match key, never a user session.
  'GET /api/gameservers/config/:matchId': publicRoute('/api/gameservers/config/{match}', 401),
  'POST /api/gameservers/events/:matchId': publicRoute('/api/gameservers/events/{match}', 401),
  'POST /api/admin/matches/:id/cancel': adminOnly('/api/admin/matches/{cancellableMatch}/cancel', 200, {
    body: { reason: 'authorization matrix' },
  }),
  'GET /api/admin/users/:id/cooldowns': adminOnly('/api/admin/users/{player}/cooldowns'),
  // Match tools on an unknown match: the guard answers first, then 404.
  'POST /api/admin/matches/:id/move': adminOnly('/api/admin/matches/{unknownId}/move', 404, {
    body: { reason: 'authorization matrix' },
  }),
  'POST /api/admin/matches/:id/swap': adminOnly('/api/admin/matches/{unknownId}/swap', 404, {
    body: (f: Fixture) => ({ out: f.other, in: f.stranger, reason: 'authorization matrix' }),
  }),
  'POST /api/admin/matches/:id/result': adminOnly('/api/admin/matches/{unknownId}/result', 404, {
    body: { winner: 'teamOne', score: { teamOne: 13, teamTwo: 5 }, reason: 'authorization matrix' },
  }),
  'POST /api/admin/matches/:id/correct': adminOnly('/api/admin/matches/{unknownId}/correct', 404, {
    body: {
      winner: 'teamOne',
      score: { teamOne: 13, teamTwo: 5 },
      map: 'de_dust2',
      reason: 'authorization matrix',
    },
  }),
  'POST /api/admin/matches/:id/void': adminOnly('/api/admin/matches/{unknownId}/void', 404, {
    body: { reason: 'authorization matrix' },
  }),
  'POST /api/admin/users/:id/cooldowns/lift': adminOnly('/api/admin/users/{player}/cooldowns/lift'),

  // ---- reach: WhatsApp, Discord, push, the mobile link ----
  'POST /api/profile/linkWhatsApp': signedIn('/api/profile/linkWhatsApp'),
  // A code nobody asked for: `{success: false}`.
  'POST /api/profile/whatsAppCode': signedIn('/api/profile/whatsAppCode'),
  'POST /api/profile/unlinkWhatsApp': signedIn('/api/profile/unlinkWhatsApp'),
  // No phone linked yet.
  'PATCH /api/profile/whatsAppEnabled': signedIn('/api/profile/whatsAppEnabled', 409),
  'GET /api/profile/whatsAppStatus': signedIn('/api/profile/whatsAppStatus'),
  // Meta's webhook: the verify token (GET) and the body's signature (POST), not a session.
  'GET /api/whatsapp/webhook': publicRoute('/api/whatsapp/webhook', 403),
  'POST /api/whatsapp/webhook': publicRoute('/api/whatsapp/webhook', 401),
  'POST /api/profile/discord/generate-link-code': signedIn('/api/profile/discord/generate-link-code'),
  // The Discord bot's shared secret, not a session.
  'POST /api/discord/link': publicRoute('/api/discord/link', 403),
  'DELETE /api/profile/discord/link': signedIn('/api/profile/discord/link'),
  'GET /api/profile/discord': signedIn('/api/profile/discord'),
  'POST /api/mobile/link': signedIn('/api/mobile/link'),
  'POST /api/mobile/exchange': publicRoute('/api/mobile/exchange', 404),
  'GET /api/mobile/exchange': publicRoute('/api/mobile/exchange?code=unknown', 422),
  'GET /api/push/vapid': publicRoute('/api/push/vapid'),
  'POST /api/push/subscriptions': signedIn('/api/push/subscriptions', 200, {
    body: (_f: Fixture, caller: Caller) => ({
      endpoint: `https://push.example.test/${caller}`,
      keys: PUSH_KEYS,
    }),
  }),
  // Another account's endpoint: removes nothing, and says nothing either.
  'DELETE /api/push/subscriptions': signedIn('/api/push/subscriptions', 200, {
    body: { endpoint: 'https://push.example.test/player' },
  }),

  // ---- drops ----
  'GET /api/drops': adminOnly('/api/drops'),
  'GET /api/drops/awards': adminOnly('/api/drops/awards'),
  'POST /api/drops/': adminOnly('/api/drops/', 201, {
    body: { name: 'Matrix', image: 'crate', rarity: 'common', amount: 1 },
  }),
  'PATCH /api/drops/:id': adminOnly('/api/drops/{unknownId}', 404, { body: { redeemed: true } }),
  'DELETE /api/drops/:id': adminOnly('/api/drops/{drop}'),
  'GET /api/drops/engine': adminOnly('/api/drops/engine'),
  'PUT /api/drops/engine': adminOnly('/api/drops/engine', 200, {
    body: { enabled: false, intervalMs: 60_000 },
  }),
  'POST /api/drops/engine/roll': adminOnly('/api/drops/engine/roll', 200, { body: {} }),
  'POST /api/profile/markDropsAsSeen': signedIn('/api/profile/markDropsAsSeen'),
  'GET /api/profile/unlocks': signedIn('/api/profile/unlocks'),

  // ---- moderation, reports, audit ----
  'GET /api/chat/session': signedIn('/api/chat/session'),
  // Product-room moderation: admins (and captains in their match room), never a player elsewhere.
  'POST /api/chat/moderation': adminOnly('/api/chat/moderation', 200, {
    body: (f: Fixture) => ({ roomId: f.globalRoom, action: 'mute', userId: f.stranger, reason: 'matrix' }),
  }),
  'GET /api/moderation/me': signedIn('/api/moderation/me'),
  'GET /api/admin/users/:id/sanctions': adminOnly('/api/admin/users/{stranger}/sanctions'),
  'POST /api/admin/users/:id/sanctions': adminOnly('/api/admin/users/{stranger}/sanctions', 201, {
    body: { kind: 'mute', minutes: 60, reason: 'authorization matrix' },
  }),
  'POST /api/admin/sanctions/:id/lift': adminOnly('/api/admin/sanctions/{sanction}/lift', 200, {
    body: { reason: 'authorization matrix' },
  }),
  'GET /api/admin/audit': adminOnly('/api/admin/audit'),
  'POST /api/reports': signedIn('/api/reports', 201, {
    body: (f: Fixture) => ({ reportedId: f.stranger, category: 'other', text: 'matrix' }),
  }),
  'GET /api/reports/mine': signedIn('/api/reports/mine'),
  'GET /api/admin/reports': adminOnly('/api/admin/reports'),
  'POST /api/admin/reports/:id/resolve': adminOnly('/api/admin/reports/{report}/resolve', 200, {
    body: { action: 'dismiss', note: 'authorization matrix' },
  }),

  // ---- privacy ----
  'GET /api/privacy': signedIn('/api/privacy'),
  'GET /api/privacy/export': signedIn('/api/privacy/export'),
  // A wrong password: the account stays (the deletion itself is tested in privacy.test.ts).
  'POST /api/privacy/delete': signedIn('/api/privacy/delete', 400, {
    body: { password: 'not-the-password' },
  }),

  // ---- about ----
  'GET /api/about': publicRoute('/api/about'),
  'PUT /api/about': adminOnly('/api/about', 200, {
    body: { locale: 'en', community: 'A community', rules: 'Be kind', contact: 'mail us' },
  }),

  // ---- arena ----
  'GET /api/arena': signedIn('/api/arena'),
  'GET /api/admin/arena': adminOnly('/api/admin/arena'),
  'POST /api/admin/arena': adminOnly('/api/admin/arena', 201),
  'PATCH /api/admin/arena/:id': adminOnly('/api/admin/arena/{arena}', 200, { body: { name: 'Arena 2' } }),
  'DELETE /api/admin/arena/:id': adminOnly('/api/admin/arena/{arena}'),

  // ---- insights ----
  'GET /api/queue/eta': signedIn('/api/queue/eta'),
  // "Notify me at N/10": only the caller's own alert exists for them; no route names another player.
  'GET /api/profile/queue-alert': signedIn('/api/profile/queue-alert'),
  'PUT /api/profile/queue-alert': signedIn('/api/profile/queue-alert', 200, {
    body: { threshold: 7, channels: ['desktop'], quietHours: { from: 23, to: 8 }, timeZone: 'Europe/Berlin' },
  }),
  'GET /api/queue/heatmap': signedIn('/api/queue/heatmap?tz=Europe/Berlin'),
  'GET /api/admin/calibration': adminOnly('/api/admin/calibration'),

  // ---- embedded homeserver: the caller's chat token ----
  'GET /.well-known/matrix/client': publicRoute('/.well-known/matrix/client'),
  'OPTIONS /_matrix/*': publicRoute('/_matrix/client/v3/sync', 204),
  'GET /_matrix/client/versions': publicRoute('/_matrix/client/versions'),
  'GET /_matrix/client/v3/login': publicRoute('/_matrix/client/v3/login'),
  'POST /_matrix/client/v3/login': publicRoute('/_matrix/client/v3/login', 400),
  'POST /_matrix/client/v3/register': publicRoute('/_matrix/client/v3/register', 403),
  'GET /_matrix/client/v3/register/available': publicRoute(
    '/_matrix/client/v3/register/available?username=someone',
    403,
  ),
  'GET /_matrix/client/v3/capabilities': chat('/_matrix/client/v3/capabilities', 200, 200),
  'GET /_matrix/client/v3/pushrules/': chat('/_matrix/client/v3/pushrules/', 200, 200),
  'GET /_matrix/client/v3/pushrules': chat('/_matrix/client/v3/pushrules', 200, 200),
  'GET /_matrix/client/v1/media/config': chat('/_matrix/client/v1/media/config', 200, 200),
  'GET /_matrix/media/v3/config': chat('/_matrix/media/v3/config', 200, 200),
  'GET /_matrix/client/v3/voip/turnServer': chat('/_matrix/client/v3/voip/turnServer', 200, 200),
  'GET /_matrix/client/v3/thirdparty/protocols': chat('/_matrix/client/v3/thirdparty/protocols', 200, 200),
  'POST /_matrix/client/v1/login/get_token': chat('/_matrix/client/v1/login/get_token', 200, 200, 200, {
    body: {},
  }),
  'GET /_matrix/client/v3/account/whoami': chat('/_matrix/client/v3/account/whoami', 200, 200),
  'POST /_matrix/client/v3/user/:userId/filter': chat(
    '/_matrix/client/v3/user/{mxPlayer}/filter',
    200,
    403,
    403,
    {
      body: { room: { timeline: { limit: 10 } } },
    },
  ),
  'GET /_matrix/client/v3/user/:userId/filter/:filterId': chat(
    '/_matrix/client/v3/user/{mxPlayer}/filter/{filter}',
    200,
    403,
  ),
  'GET /_matrix/client/v3/sync': chat('/_matrix/client/v3/sync?timeout=0', 200, 200),
  'POST /_matrix/client/v3/createRoom': chat('/_matrix/client/v3/createRoom', 200, 200, 200, {
    body: { name: 'matrix' },
  }),
  // The player's private room (invite only): others may neither join nor read it.
  'POST /_matrix/client/v3/join/:roomIdOrAlias': chat('/_matrix/client/v3/join/{room}', 200, 403, 403, {
    body: {},
  }),
  'POST /_matrix/client/v3/rooms/:roomId/join': chat('/_matrix/client/v3/rooms/{room}/join', 200, 403, 403, {
    body: {},
  }),
  'POST /_matrix/client/v3/rooms/:roomId/invite': chat(
    '/_matrix/client/v3/rooms/{room}/invite',
    200,
    403,
    403,
    {
      body: (f: Fixture) => ({ user_id: f.mxStranger }),
    },
  ),
  'POST /_matrix/client/v3/rooms/:roomId/leave': chat(
    '/_matrix/client/v3/rooms/{leaveRoom}/leave',
    200,
    403,
    403,
    {
      body: {},
    },
  ),
  'POST /_matrix/client/v3/rooms/:roomId/forget': chat(
    '/_matrix/client/v3/rooms/{leaveRoom}/forget',
    200,
    200,
    200,
    {
      body: {},
    },
  ),
  // Alias lookups and profiles need no token (Client-Server API: "Requires authentication: No").
  // Moderation in the player's room (they created it: power 100); others are not members.
  'POST /_matrix/client/v3/rooms/:roomId/kick': chat('/_matrix/client/v3/rooms/{room}/kick', 200, 403, 403, {
    body: (f: Fixture) => ({ user_id: f.mxStranger, reason: 'matrix' }),
  }),
  'POST /_matrix/client/v3/rooms/:roomId/ban': chat('/_matrix/client/v3/rooms/{room}/ban', 200, 403, 403, {
    body: (f: Fixture) => ({ user_id: f.mxStranger, reason: 'matrix' }),
  }),
  'POST /_matrix/client/v3/rooms/:roomId/unban': chat(
    '/_matrix/client/v3/rooms/{room}/unban',
    200,
    403,
    403,
    {
      body: (f: Fixture) => ({ user_id: f.mxStranger }),
    },
  ),
  'POST /_matrix/client/v3/rooms/:roomId/report/:eventId': chat(
    '/_matrix/client/v3/rooms/{room}/report/{event}',
    200,
    // Not in the room: 404, as the spec says (the event is not found for them).
    404,
    404,
    { body: { reason: 'matrix' } },
  ),
  'GET /_matrix/client/v3/directory/room/:alias': publicRoute('/_matrix/client/v3/directory/room/{alias}'),
  'PUT /_matrix/client/v3/directory/room/:alias': chat(
    '/_matrix/client/v3/directory/room/{newAlias}',
    200,
    403,
    403,
    { body: (f: Fixture) => ({ room_id: f.room }) },
  ),
  'DELETE /_matrix/client/v3/directory/room/:alias': chat(
    '/_matrix/client/v3/directory/room/{newAlias}',
    200,
    403,
  ),
  'PUT /_matrix/client/v3/rooms/:roomId/send/:eventType/:txnId': chat(
    '/_matrix/client/v3/rooms/{room}/send/m.room.message/matrix1',
    200,
    403,
    403,
    { body: { msgtype: 'm.text', body: 'matrix' } },
  ),
  'PUT /_matrix/client/v3/rooms/:roomId/redact/:eventId/:txnId': chat(
    '/_matrix/client/v3/rooms/{room}/redact/{event}/matrix2',
    200,
    403,
    403,
    { body: {} },
  ),
  'PUT /_matrix/client/v3/rooms/:roomId/state/:eventType': chat(
    '/_matrix/client/v3/rooms/{room}/state/m.room.topic',
    200,
    403,
    403,
    { body: { topic: 'matrix' } },
  ),
  'GET /_matrix/client/v3/rooms/:roomId/state/:eventType': chat(
    '/_matrix/client/v3/rooms/{room}/state/m.room.topic',
    200,
    403,
  ),
  'PUT /_matrix/client/v3/rooms/:roomId/state/:eventType/': chat(
    '/_matrix/client/v3/rooms/{room}/state/m.room.topic/',
    200,
    403,
    403,
    { body: { topic: 'matrix' } },
  ),
  'GET /_matrix/client/v3/rooms/:roomId/state/:eventType/': chat(
    '/_matrix/client/v3/rooms/{room}/state/m.room.topic/',
    200,
    403,
  ),
  'PUT /_matrix/client/v3/rooms/:roomId/state/:eventType/:stateKey': chat(
    '/_matrix/client/v3/rooms/{room}/state/m.room.name/',
    200,
    403,
    403,
    { body: { name: 'matrix' } },
  ),
  'GET /_matrix/client/v3/rooms/:roomId/state/:eventType/:stateKey': chat(
    '/_matrix/client/v3/rooms/{room}/state/m.room.member/{mxPlayer}',
    200,
    403,
  ),
  'GET /_matrix/client/v3/rooms/:roomId/state': chat('/_matrix/client/v3/rooms/{room}/state', 200, 403),
  'GET /_matrix/client/v3/rooms/:roomId/members': chat('/_matrix/client/v3/rooms/{room}/members', 200, 403),
  'GET /_matrix/client/v3/rooms/:roomId/joined_members': chat(
    '/_matrix/client/v3/rooms/{room}/joined_members',
    200,
    403,
  ),
  'GET /_matrix/client/v3/joined_rooms': chat('/_matrix/client/v3/joined_rooms', 200, 200),
  'GET /_matrix/client/v3/rooms/:roomId/event/:eventId': chat(
    '/_matrix/client/v3/rooms/{room}/event/{event}',
    200,
    403,
  ),
  'GET /_matrix/client/v3/rooms/:roomId/messages': chat(
    '/_matrix/client/v3/rooms/{room}/messages?dir=b',
    200,
    403,
  ),
  'PUT /_matrix/client/v3/rooms/:roomId/typing/:userId': chat(
    '/_matrix/client/v3/rooms/{room}/typing/{mxPlayer}',
    200,
    403,
    403,
    { body: { typing: true, timeout: 1000 } },
  ),
  'POST /_matrix/client/v3/rooms/:roomId/receipt/:receiptType/:eventId': chat(
    '/_matrix/client/v3/rooms/{room}/receipt/m.read/{event}',
    200,
    403,
    403,
    { body: {} },
  ),
  'POST /_matrix/client/v3/rooms/:roomId/read_markers': chat(
    '/_matrix/client/v3/rooms/{room}/read_markers',
    200,
    403,
    403,
    { body: (f: Fixture) => ({ 'm.fully_read': f.event }) },
  ),
  'PUT /_matrix/client/v3/user/:userId/account_data/:type': chat(
    '/_matrix/client/v3/user/{mxPlayer}/account_data/org.openpug.matrix',
    200,
    403,
    403,
    { body: { a: 1 } },
  ),
  'GET /_matrix/client/v3/user/:userId/account_data/:type': chat(
    '/_matrix/client/v3/user/{mxPlayer}/account_data/org.openpug.matrix',
    200,
    403,
  ),
  'PUT /_matrix/client/v3/user/:userId/rooms/:roomId/account_data/:type': chat(
    '/_matrix/client/v3/user/{mxPlayer}/rooms/{room}/account_data/org.openpug.matrix',
    200,
    403,
    403,
    { body: { a: 1 } },
  ),
  'GET /_matrix/client/v3/user/:userId/rooms/:roomId/account_data/:type': chat(
    '/_matrix/client/v3/user/{mxPlayer}/rooms/{room}/account_data/org.openpug.matrix',
    200,
    403,
  ),
  'GET /_matrix/client/v3/user/:userId/rooms/:roomId/tags': chat(
    '/_matrix/client/v3/user/{mxPlayer}/rooms/{room}/tags',
    200,
    403,
  ),
  'PUT /_matrix/client/v3/user/:userId/rooms/:roomId/tags/:tag': chat(
    '/_matrix/client/v3/user/{mxPlayer}/rooms/{room}/tags/m.favourite',
    200,
    403,
    403,
    { body: {} },
  ),
  'DELETE /_matrix/client/v3/user/:userId/rooms/:roomId/tags/:tag': chat(
    '/_matrix/client/v3/user/{mxPlayer}/rooms/{room}/tags/m.favourite',
    200,
    403,
  ),
  'GET /_matrix/client/v3/profile/:userId': publicRoute('/_matrix/client/v3/profile/{mxPlayer}'),
  'GET /_matrix/client/v3/profile/:userId/displayname': publicRoute(
    '/_matrix/client/v3/profile/{mxPlayer}/displayname',
  ),
  'PUT /_matrix/client/v3/profile/:userId/displayname': chat(
    '/_matrix/client/v3/profile/{mxPlayer}/displayname',
    200,
    400,
    400,
    { body: { displayname: 'matrix' } },
  ),
  'PUT /_matrix/client/v3/profile/:userId/avatar_url': chat(
    '/_matrix/client/v3/profile/{mxPlayer}/avatar_url',
    200,
    400,
    400,
    { body: (f: Fixture) => ({ avatar_url: f.mxc }) },
  ),
  'GET /_matrix/client/v3/profile/:userId/avatar_url': publicRoute(
    '/_matrix/client/v3/profile/{mxPlayer}/avatar_url',
  ),
  'POST /_matrix/media/v3/upload': chat('/_matrix/media/v3/upload?filename=a.png', 200, 200, 200, {
    raw: { type: 'image/png', data: PNG },
  }),
  // Authenticated media: any signed-in chat user who has the id, as Synapse.
  'GET /_matrix/client/v1/media/download/:serverName/:mediaId': chat(
    '/_matrix/client/v1/media/download/{mediaPath}',
    200,
    200,
  ),
  'GET /_matrix/client/v1/media/download/:serverName/:mediaId/:fileName': chat(
    '/_matrix/client/v1/media/download/{mediaPath}/a.png',
    200,
    200,
  ),
  'GET /_matrix/client/v1/media/thumbnail/:serverName/:mediaId': chat(
    '/_matrix/client/v1/media/thumbnail/{mediaPath}?width=32&height=32',
    200,
    200,
  ),
  // The legacy unauthenticated path: 404 for everyone, as Synapse with authenticated media.
  'GET /_matrix/media/v3/download/:serverName/:mediaId': publicRoute(
    '/_matrix/media/v3/download/{mediaPath}',
    404,
  ),
  'GET /_matrix/media/v3/download/:serverName/:mediaId/:fileName': publicRoute(
    '/_matrix/media/v3/download/{mediaPath}/a.png',
    404,
  ),
  'POST /_matrix/client/v3/logout': chat('/_matrix/client/v3/logout', 200, 200, 200, { body: {} }),
  'POST /_matrix/client/v3/logout/all': chat('/_matrix/client/v3/logout/all', 200, 200, 200, {
    body: {},
    freshChatTokens: true,
  }),
  // Synapse's admin API: the shared secret (register) or a server admin's token, never a player's.
  'GET /_synapse/admin/v1/register': publicRoute('/_synapse/admin/v1/register'),
  'POST /_synapse/admin/v1/register': publicRoute('/_synapse/admin/v1/register', 400),
  'POST /_synapse/admin/v1/reset_password/:userId': chat(
    '/_synapse/admin/v1/reset_password/{mxStranger}',
    403,
    403,
    403,
    { body: { new_password: 'matrix-password' } },
  ),
  'GET /_synapse/admin/v2/users/:userId/devices': chat(
    '/_synapse/admin/v2/users/{mxStranger}/devices',
    403,
    403,
  ),
  'POST /_synapse/admin/v2/users/:userId/delete_devices': chat(
    '/_synapse/admin/v2/users/{mxStranger}/delete_devices',
    403,
    403,
    403,
    { body: { devices: [] } },
  ),
  'POST /_synapse/admin/v1/deactivate/:userId': chat(
    '/_synapse/admin/v1/deactivate/{mxStranger}',
    403,
    403,
    403,
    {
      body: {},
    },
  ),
};

interface Route {
  method: string;
  url: string;
  body?: z.ZodType;
}

interface PrivateValues {
  email: string;
  teamSpeakId: string;
  phone?: string;
}

/** Private values that cannot appear by chance; a phone only for users who never call (see PRIVATE). */
const privateValues = (label: string, phone?: number): PrivateValues => ({
  email: `hidden-${label}@private-field.test`,
  teamSpeakId: `HiddenVoice${label}Xq=`,
  ...(phone === undefined ? {} : { phone: `+4915559${String(phone).padStart(5, '0')}` }),
});

/** A call the scan reads: who made it, what, and the answer. */
interface Answer {
  caller: Caller;
  label: string;
  body: string;
}

let t: TestApp;
const routes: Route[] = [];
/** Every answer of the matrix and of the victim pass. */
const answers: Answer[] = [];
/**
 * Each fixture user's private values, by user id. The callers have no phone: a phone turns the
 * WhatsApp rows' answers (a linked number) into other ones.
 */
const PRIVATE = new Map<string, PrivateValues>();
const key = (r: Route) => `${r.method} ${r.url}`;
const users = {} as Record<Caller, TestUser>;
/** Each caller's chat access token. */
const chatTokens = {} as Record<Caller, string>;
const f: Fixture = {};

async function refreshChatTokens(): Promise<void> {
  for (const caller of ['player', 'other', 'admin'] as const)
    chatTokens[caller] = (await matrixSessionFor(t.app.ctx, users[caller].id)).accessToken;
}

function collect(route: RouteOptions): void {
  for (const method of [route.method].flat()) {
    if (method === 'HEAD') continue;
    routes.push({ method, url: route.url, body: (route.schema as { body?: z.ZodType } | undefined)?.body });
  }
}

async function api(user: TestUser, method: string, url: string, payload?: object) {
  const res = await t.app.inject({ method: method as 'GET', url, headers: bearer(user.token), payload });
  if (res.statusCode >= 300) throw new Error(`fixture ${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}
async function mx(token: string, method: string, url: string, payload?: object) {
  const res = await t.app.inject({
    method: method as 'GET',
    url,
    headers: { authorization: `Bearer ${token}` },
    payload: payload ?? {},
  });
  if (res.statusCode >= 300) throw new Error(`fixture ${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** A fixture user with private values of their own (`phone`: a victim, who never calls). */
async function userWithPrivateValues(
  label: string,
  phone?: number,
  fields: Parameters<typeof createTestUser>[1] = {},
): Promise<TestUser> {
  const values = privateValues(label, phone);
  const user = await createTestUser(t.app, { ...values, ...fields });
  PRIVATE.set(user.id, values);
  return user;
}

beforeAll(async () => {
  t = await createTestApp({ onRoute: collect });
  await t.app.ready();
  users.player = await userWithPrivateValues('Player');
  users.other = await userWithPrivateValues('Other');
  users.admin = await userWithPrivateValues('Admin', undefined, { role: 'ADMIN' });
  const stranger = await userWithPrivateValues('Stranger', 1);
  const buddy = await userWithPrivateValues('Buddy', 2);
  const lonely = await userWithPrivateValues('Lonely', 3);
  await refreshChatTokens();
  const server = t.app.ctx.config.MATRIX_SERVER_NAME ?? 'localhost';
  const mxId = (id: string) => matrixUserId(id, server);
  await matrixSessionFor(t.app.ctx, stranger.id);
  Object.assign(f, {
    player: users.player.id,
    other: users.other.id,
    stranger: stranger.id,
    buddy: buddy.id,
    lonely: lonely.id,
    mxPlayer: mxId(users.player.id),
    mxOther: mxId(users.other.id),
    mxStranger: mxId(stranger.id),
    // The private-field scan's victim: the player's friend and teammate.
    victim: buddy.id,
    mxVictim: mxId(buddy.id),
    unknownId: '00000000-0000-4000-8000-000000000000',
  });
  const { player, admin } = users;
  // Friends: a pending request to the player, one from the player, and a friendship.
  f.requestToPlayer = (await api(stranger, 'POST', '/api/friends', { recipient: player.id }))._id;
  const other2 = await userWithPrivateValues('OtherTwo', 4);
  f.requestFromPlayer = (await api(player, 'POST', '/api/friends', { recipient: other2.id }))._id;
  const toBuddy = (await api(buddy, 'POST', '/api/friends', { recipient: player.id }))._id;
  await api(player, 'PATCH', `/api/friends/${toBuddy}`, { accepted: true });
  // Matches: one the player played, one live for the admin to cancel.
  f.match = await seedMatch(t.app, 'finished', [player, buddy]);
  f.cancellableMatch = await seedMatch(t.app, 'active', [stranger, other2]);
  // Admin objects.
  f.drop = (
    await api(admin, 'POST', '/api/drops/', { name: 'Crate', image: 'crate', rarity: 'common', amount: 1 })
  )._id;
  f.arena = (
    await api(admin, 'POST', '/api/admin/arena', {
      name: 'Arena',
      address: '203.0.113.7:27015',
      rconAddress: '203.0.113.7:27015',
      rconPassword: 'rcon-password',
    })
  )._id;
  f.sanction = (
    await api(admin, 'POST', `/api/admin/users/${other2.id}/sanctions`, {
      kind: 'mute',
      minutes: 60,
      reason: 'fixture',
    })
  )._id;
  f.report = (
    await api(player, 'POST', '/api/reports', { reportedId: other2.id, category: 'other', text: 'x' })
  )._id;
  // Chat: the player's invite-only room with a message, a room to leave, a filter and an upload.
  const token = chatTokens.player;
  f.room = (await mx(token, 'POST', '/_matrix/client/v3/createRoom', { preset: 'private_chat' })).room_id;
  f.leaveRoom = (
    await mx(token, 'POST', '/_matrix/client/v3/createRoom', { preset: 'private_chat' })
  ).room_id;
  f.event = (
    await mx(
      token,
      'PUT',
      `/_matrix/client/v3/rooms/${encodeURIComponent(f.room)}/send/m.room.message/fixture`,
      {
        msgtype: 'm.text',
        body: 'fixture',
      },
    )
  ).event_id;
  f.globalRoom = await ensureGlobalRoom(t.app.ctx);
  f.alias = `#matrix-${users.player.id.slice(0, 8)}:${server}`;
  await mx(token, 'PUT', `/_matrix/client/v3/directory/room/${encodeURIComponent(f.alias)}`, {
    room_id: f.room,
  });
  f.newAlias = `#matrix-new-${users.player.id.slice(0, 8)}:${server}`;
  f.filter = (
    await mx(token, 'POST', `/_matrix/client/v3/user/${encodeURIComponent(f.mxPlayer)}/filter`, {
      room: { timeline: { limit: 5 } },
    })
  ).filter_id;
  const upload = await t.app.inject({
    method: 'POST',
    url: '/_matrix/media/v3/upload?filename=a.png',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'image/png' },
    payload: PNG,
  });
  f.mxc = upload.json().content_uri;
  f.mediaPath = f.mxc.replace('mxc://', '');
});
afterAll(() => t.close());

/** The URL with the fixture's ids; path segments are encoded, a media path keeps its slash. */
function fill(url: string): string {
  return url.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = f[name];
    if (value === undefined) throw new Error(`no fixture value {${name}}`);
    return name === 'mediaPath' ? value : encodeURIComponent(value);
  });
}

/** Sends the row's call as `caller` and keeps the answer for the private-field scan. */
async function send(route: Route, row: Row, caller: Caller): Promise<LightMyRequestResponse> {
  const res = await sendUnrecorded(route, row, caller);
  answers.push({
    caller,
    label: `${route.method} ${fill(row.url)} as ${caller} (${res.statusCode})`,
    body: res.body,
  });
  return res;
}

function sendUnrecorded(route: Route, row: Row, caller: Caller): Promise<LightMyRequestResponse> {
  const isChat = route.url.startsWith('/_matrix') || route.url.startsWith('/_synapse');
  const token = caller === 'anonymous' ? undefined : isChat ? chatTokens[caller] : users[caller].token;
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  let payload: string | Buffer | undefined;
  if (row.raw) {
    headers['content-type'] = row.raw.type;
    payload = row.raw.data;
  } else if (route.method !== 'GET' && route.method !== 'DELETE' && route.method !== 'OPTIONS') {
    const body =
      typeof row.body === 'function'
        ? row.body(f, caller)
        : (row.body ?? (route.body ? sample(jsonSchemaOf(route.body) as JsonSchema) : {}));
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  } else if (route.method === 'DELETE' && row.body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(typeof row.body === 'function' ? row.body(f, caller) : row.body);
  }
  if (route.method === 'OPTIONS') {
    headers.origin = 'https://elsewhere.example';
    headers['access-control-request-method'] = 'GET';
  }
  return t.app.inject({
    method: route.method as 'GET',
    url: fill(row.url),
    headers,
    payload,
    remoteAddress: OUTSIDE,
  });
}

describe('authorization matrix', () => {
  it('has a row for every route, and no row for a route that is gone', () => {
    const registered = new Set(routes.map(key));
    expect(registered.size).toBeGreaterThan(150);
    expect(
      [...registered].filter((k) => !(k in MATRIX)),
      'routes without a row',
    ).toEqual([]);
    expect(
      Object.keys(MATRIX).filter((k) => !registered.has(k) && !(MATRIX[k].pgliteOnly && usingPostgres())),
      'rows without a route',
    ).toEqual([]);
  });

  it('answers each caller with the status of its row', async () => {
    const order: Caller[] = ['anonymous', 'other', 'admin', 'player'];
    const column: Record<Caller, number> = { anonymous: 0, player: 1, other: 2, admin: 3 };
    const mismatches: string[] = [];
    // The logouts end the chat tokens: they run last.
    const byKey = new Map(routes.map((r) => [key(r), r]));
    const keys = Object.keys(MATRIX).sort(
      (a, b) => Number(a.includes('/logout')) - Number(b.includes('/logout')),
    );
    for (const k of keys) {
      const route = byKey.get(k);
      if (!route) continue;
      const row = MATRIX[k];
      if (row.freshChatTokens) await refreshChatTokens();
      const seen: Statuses = [0, 0, 0, 0];
      for (const caller of order) {
        const res = await send(route, row, caller);
        seen[column[caller]] = res.statusCode;
        if (res.statusCode >= 500)
          mismatches.push(`${k} as ${caller}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
      if (seen.join() !== row.expect.join())
        mismatches.push(`${k}: expected [${row.expect.join(', ')}], got [${seen.join(', ')}]`);
    }
    expect(mismatches).toEqual([]);
    // ~700 calls: a few seconds on an idle machine, more on a busy CI runner.
  }, 120_000);
});

/** The one exception (docs/contract.md §6 Roles): an admin sees e-mails in the users table. */
const adminMaySee = (caller: Caller, label: string, field: string) =>
  caller === 'admin' && field === 'email' && label.startsWith('GET /api/users?');

describe("other users' private fields in every answer", () => {
  // Runs after the matrix (the file's tests run in order), whose answers it scans too.
  it("no answer of any route holds another user's e-mail, phone or TeamSpeak id", async () => {
    expect(answers.length, 'the matrix ran first').toBeGreaterThan(600);
    // The victim pass: every GET row about the victim instead of the user it names, by everyone.
    await refreshChatTokens();
    const aboutVictim = (url: string) =>
      url
        .replace(/\{(player|other|stranger)\}/g, '{victim}')
        .replace(/\{mx(Player|Other|Stranger)\}/g, '{mxVictim}');
    for (const [k, row] of Object.entries(MATRIX)) {
      if (!k.startsWith('GET ') || (row.pgliteOnly && usingPostgres())) continue;
      const route = routes.find((r) => key(r) === k);
      if (!route) continue;
      for (const caller of ['anonymous', 'player', 'other', 'admin'] as const)
        await send(route, { ...row, url: aboutVictim(row.url) }, caller);
    }
    // The victim's own record was served to the others, so the scan reads real answers about them.
    const card = answers.find(
      (a) => a.caller === 'other' && a.label.startsWith(`GET /api/users/${f.victim} `),
    );
    expect(card?.body).toContain(f.victim);

    const leaks: string[] = [];
    for (const { caller, label, body } of answers) {
      const self = caller === 'anonymous' ? null : users[caller].id;
      for (const [userId, values] of PRIVATE) {
        if (userId === self) continue;
        for (const [field, value] of Object.entries(values))
          if (body.includes(value) && !adminMaySee(caller, label, field))
            leaks.push(`${label}: ${field} of ${userId}`);
      }
    }
    expect(leaks).toEqual([]);
    // The scan is real: a caller's own values do reach them (their profile).
    const own = PRIVATE.get(users.player.id) as PrivateValues;
    expect(answers.some((a) => a.caller === 'player' && a.body.includes(own.email))).toBe(true);
  }, 120_000);
});
