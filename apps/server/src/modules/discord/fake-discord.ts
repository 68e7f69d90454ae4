/**
 * Test helper: a local Discord HTTP API (v10) for the two calls of a DM, answering as Discord does.
 *  - POST /api/v10/users/@me/channels {recipient_id} → 200 DM channel object (type 1, recipients)
 *    (https://discord.com/developers/docs/resources/user#create-dm);
 *    an unknown recipient → 404 {"code": 10013, "message": "Unknown User"} (topics/opcodes-and-status-
 *    codes#json, JSON error codes).
 *  - POST /api/v10/channels/{id}/messages {content} → 200 message object
 *    (https://discord.com/developers/docs/resources/message#create-message); to a player who does
 *    not accept DMs → 403 {"code": 50007, "message": "Cannot send messages to this user"}.
 *  - Without `Authorization: Bot <token>` → 401 {"code": 0, "message": "401: Unauthorized"}
 *    (reference#authentication).
 *  - `failNext(route, …)` queues a one-off answer: 429 with {"retry_after": s, "global": false}
 *    and the `Retry-After` header, or a 5xx.
 * Error bodies: https://discord.com/developers/docs/reference#error-messages; rate limit bodies:
 * https://discord.com/developers/docs/topics/rate-limits#exceeding-a-rate-limit-rate-limit-response-structure
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeDiscordRequest {
  method: string;
  path: string;
  route: 'channels' | 'messages' | 'other';
  body: Record<string, unknown>;
  at: number;
  status: number;
}
type Route = 'channels' | 'messages';
type Scripted = { status: 429; retryAfter: number } | { status: 500 | 502 | 503 };

export async function startFakeDiscord(token: string) {
  const requests: FakeDiscordRequest[] = [];
  const closedDms = new Set<string>();
  const unknownUsers = new Set<string>();
  const channels = new Map<string, string>();
  const scripted: Record<Route, Scripted[]> = { channels: [], messages: [] };
  let snowflake = 1_300_000_000_000_000_000n;
  const nextId = () => String(++snowflake);

  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0];
      const messages = /^\/api\/v10\/channels\/(\d+)\/messages$/.exec(path);
      const route: FakeDiscordRequest['route'] =
        path === '/api/v10/users/@me/channels' ? 'channels' : messages ? 'messages' : 'other';
      let body: Record<string, unknown> = {};
      try {
        body = raw ? JSON.parse(raw) : {};
      } catch {}
      const answer = (status: number, json: unknown, headers: Record<string, string> = {}) => {
        requests.push({ method: req.method ?? '', path, route, body, at: Date.now(), status });
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(json));
      };

      // reference#authentication: a bot token goes as `Authorization: Bot <token>`; else 401.
      if (req.headers.authorization !== `Bot ${token}`)
        return answer(401, { message: '401: Unauthorized', code: 0 });
      // Any other path: Discord's 404 body (reference#error-messages, code 0).
      if (req.method !== 'POST' || route === 'other')
        return answer(404, { message: '404: Not Found', code: 0 });
      // topics/rate-limits#exceeding-a-rate-limit: 429 with retry_after (s), global and the
      // Retry-After and X-RateLimit-Scope headers; a scripted 5xx stands for Discord's own outages.
      const next = scripted[route].shift();
      if (next?.status === 429)
        return answer(
          429,
          { message: 'You are being rate limited.', retry_after: next.retryAfter, global: false },
          { 'retry-after': String(next.retryAfter), 'x-ratelimit-scope': 'user' },
        );
      if (next) return answer(next.status, { message: 'Internal Server Error', code: 0 });

      if (route === 'channels') {
        // resources/user#create-dm: the DM channel object (type 1 = DM, channel#channel-object-channel-types);
        // one channel per recipient, returned again on a second call; unknown user → 10013.
        const recipient = String(body.recipient_id ?? '');
        if (unknownUsers.has(recipient) || !/^\d+$/.test(recipient))
          return answer(404, { message: 'Unknown User', code: 10013 });
        const id = channels.get(recipient) ?? nextId();
        channels.set(recipient, id);
        return answer(200, {
          id,
          type: 1,
          last_message_id: null,
          flags: 0,
          recipients: [
            { id: recipient, username: `user${recipient.slice(-4)}`, discriminator: '0', avatar: null },
          ],
        });
      }
      const channelId = messages?.[1] ?? '';
      const recipient = [...channels].find(([, c]) => c === channelId)?.[0];
      // topics/opcodes-and-status-codes#json: 10003 Unknown Channel, 50007 Cannot send messages to this user.
      if (!recipient) return answer(404, { message: 'Unknown Channel', code: 10003 });
      if (closedDms.has(recipient))
        return answer(403, { message: 'Cannot send messages to this user', code: 50007 });
      // resources/message#create-message: 200 with the message object (resources/message#message-object).
      return answer(200, {
        id: nextId(),
        channel_id: channelId,
        type: 0,
        content: body.content,
        author: {
          id: '1100000000000000001',
          username: 'openpug',
          bot: true,
          discriminator: '0',
          avatar: null,
        },
        timestamp: new Date().toISOString(),
        edited_timestamp: null,
        tts: false,
        mention_everyone: false,
        mentions: [],
        mention_roles: [],
        attachments: [],
        embeds: [],
        pinned: false,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;

  return {
    /** DISCORD_API_URL for the app. */
    url,
    requests,
    /** DMs delivered to a Discord user: the contents. */
    delivered: (discordId: string) =>
      requests
        .filter(
          (r) =>
            r.route === 'messages' && r.status === 200 && channels.get(discordId) === r.path.split('/')[4],
        )
        .map((r) => String(r.body.content)),
    /** The player turns "allow direct messages from server members" off (true) or on (false). */
    closeDms(discordId: string, closed = true) {
      if (closed) closedDms.add(discordId);
      else closedDms.delete(discordId);
    },
    unknownUser(discordId: string) {
      unknownUsers.add(discordId);
    },
    failNext(route: Route, answer: Scripted) {
      scripted[route].push(answer);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export type FakeDiscord = Awaited<ReturnType<typeof startFakeDiscord>>;
