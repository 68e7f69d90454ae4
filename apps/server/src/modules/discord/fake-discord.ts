/**
 * Test helper: a local Discord (API v10) — the HTTP API the bot uses and a gateway that speaks the
 * interaction protocol — answering as Discord does. discord.js connects to it unchanged
 * (`rest.api` = `url`): it fetches the gateway URL, identifies, registers its commands and gets
 * INTERACTION_CREATE dispatches; tests act as Discord users do (`slash`, `press`, `dms`).
 *
 * HTTP (https://discord.com/developers/docs/reference, error bodies #error-messages, JSON error
 * codes topics/opcodes-and-status-codes#json):
 *  - Bot-authenticated routes want `Authorization: Bot <token>`; else 401 {"code": 0,
 *    "message": "401: Unauthorized"} (reference#authentication). The interaction callback and the
 *    interaction webhooks carry their own token in the path and need no header (discord.js sends
 *    them with `auth: false`, InteractionResponses.js and InteractionWebhook.js).
 *  - GET /gateway/bot → {url, shards, session_start_limit} (events/gateway#get-gateway-bot).
 *  - PUT /applications/{app}/commands → the commands, each with an id (Bulk Overwrite Global
 *    Application Commands, interactions/application-commands#bulk-overwrite-global-application-commands).
 *  - POST /users/@me/channels {recipient_id} → 200 DM channel object (type 1, recipients)
 *    (resources/user#create-dm); an unknown recipient → 404 {code 10013 "Unknown User"}.
 *  - POST /channels/{id}/messages {content, components} → 200 message object
 *    (resources/message#create-message); to a player who does not accept DMs → 403 {code 50007}.
 *  - PATCH /channels/{id}/messages/{id} → the edited message (resources/message#edit-message);
 *    an unknown one → 404 {code 10008 "Unknown Message"}.
 *  - POST /interactions/{id}/{token}/callback → 204 (interactions/receiving-and-responding#create-interaction-response).
 *    Later than 3 s after the dispatch → 404 {code 10062 "Unknown interaction"} (#responding-to-an-interaction:
 *    "you must send an initial response within 3 seconds"); a second callback → 400 {code 40060
 *    "Interaction has already been acknowledged"}. Type 4 posts the reply, 5 a "thinking…" reply,
 *    6 nothing yet, 7 edits the message the button is on (#interaction-response-object-interaction-callback-type).
 *  - PATCH /webhooks/{app}/{token}/messages/@original: edits the reply, or after type 6 the message
 *    the button is on (#edit-original-interaction-response); POST /webhooks/{app}/{token} posts a
 *    follow-up (#create-followup-message). Before any callback, or after the token's 15 minutes →
 *    404 {code 10015 "Unknown Webhook"}.
 *  - `failNext(route, …, path?)` queues a one-off answer: 429 with {"retry_after": s, "global": false}
 *    and the `Retry-After` header (topics/rate-limits#exceeding-a-rate-limit), or a 5xx.
 *
 * Gateway (events/gateway, events/gateway-events), JSON encoding without compression (discord.js
 * asks for zlib-stream only when the optional zlib-sync package is installed, WebSocketManager.js):
 * on connect Hello (op 10, heartbeat_interval); Identify (op 2) with the bot token → Ready
 * (op 0, t READY: v, user, guilds, session_id, resume_gateway_url, shard, application {id, flags});
 * a wrong token → close 4004 "Authentication failed" (topics/opcodes-and-status-codes#gateway-gateway-close-event-codes);
 * Heartbeat (op 1) → Heartbeat ACK (op 11); Resume (op 6) is not offered → Invalid Session (op 9,
 * d false), after which the client identifies anew. Interactions arrive as INTERACTION_CREATE
 * with the interaction object (receiving-and-responding#interaction-object): `member` in a guild,
 * `user` in a DM; for a button the `message` it is on and data {custom_id, component_type 2}.
 * WebSocket framing follows RFC 6455 (handshake §4.2.2, frames §5.2, client masking §5.3, close
 * §5.5.1, ping/pong §5.5.2-3); fragmented messages are not supported (discord.js sends none).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';

export interface FakeDiscordRequest {
  method: string;
  path: string;
  route: Route | 'other';
  body: Record<string, unknown>;
  at: number;
  status: number;
}
type Route = 'channels' | 'messages' | 'edit' | 'gateway' | 'commands' | 'callback' | 'original' | 'followup';
type Scripted = { status: 429; retryAfter: number } | { status: 500 | 502 | 503 };

/** A user object (resources/user#user-object). */
export interface DiscordUser {
  id: string;
  username: string;
  global_name: string | null;
  discriminator: '0';
  avatar: null;
}
/** The parts of a message object (resources/message#message-object) the bot reads and writes. */
export interface FakeMessage {
  id: string;
  channel_id: string;
  type: 0;
  content: string;
  components: Array<{ type: 1; components: Array<{ type: 2; custom_id?: string; label?: string }> }>;
  flags: number;
  author: DiscordUser & { bot: true };
  timestamp: string;
  edited_timestamp: string | null;
  [more: string]: unknown;
}
export interface FakeInteraction {
  id: string;
  token: string;
  type: 2 | 3;
  userId: string;
  dispatchedAt: number;
  /** The interaction response (its type and data) once acknowledged. */
  callback?: { type: number; data: Record<string, unknown> };
  /** The reply the caller sees (types 4 and 5, edited by PATCH @original). */
  reply?: FakeMessage;
  /** For a button: the message it is on. */
  messageId?: string;
  followups: FakeMessage[];
  /** The caller has seen the outcome (a reply, an edit, a follow-up). */
  settled: boolean;
}

const EPHEMERAL = 1 << 6;
const INTERACTION_ACK_MS = 3_000;
const INTERACTION_TOKEN_MS = 15 * 60_000;
/** The heartbeat interval of Discord's example Hello (events/gateway-events#hello). */
const HEARTBEAT_MS = 41_250;
const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** The bot's user and application (a bot's user id is its application's id). */
export const FAKE_BOT_ID = '1100000000000000001';
const botUser = {
  id: FAKE_BOT_ID,
  username: 'openpug',
  global_name: null,
  discriminator: '0' as const,
  avatar: null,
  bot: true as const,
};

interface WsPeer {
  send(payload: unknown): void;
  close(code: number, reason: string): void;
}

/** RFC 6455 server side: the handshake (§4.2.2) and unfragmented text, ping and close frames. */
function acceptWebSocket(
  req: IncomingMessage,
  socket: Duplex,
  onText: (text: string) => void,
  onGone: () => void,
) {
  const accept = createHash('sha1')
    .update(`${req.headers['sec-websocket-key'] ?? ''}${WS_GUID}`)
    .digest('base64');
  socket.write(
    `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
  );
  let closed = false;
  const frame = (opcode: number, payload: Buffer) => {
    const n = payload.length;
    const head = Buffer.alloc(n < 126 ? 2 : n < 65_536 ? 4 : 10);
    head[0] = 0x80 | opcode; // FIN + opcode (§5.2); server frames are not masked (§5.1)
    if (n < 126) head[1] = n;
    else if (n < 65_536) {
      head[1] = 126;
      head.writeUInt16BE(n, 2);
    } else {
      head[1] = 127;
      head.writeBigUInt64BE(BigInt(n), 2);
    }
    socket.write(Buffer.concat([head, payload]));
  };
  const peer: WsPeer = {
    send: (payload) => {
      if (!closed) frame(0x1, Buffer.from(JSON.stringify(payload)));
    },
    close: (code, reason) => {
      if (closed) return;
      closed = true;
      const body = Buffer.alloc(2 + Buffer.byteLength(reason));
      body.writeUInt16BE(code, 0);
      body.write(reason, 2);
      frame(0x8, body);
      socket.end();
    },
  };
  let buffer = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      if (buffer.length < 2) return;
      const opcode = buffer[0] & 0x0f;
      const masked = (buffer[1] & 0x80) !== 0;
      let length = buffer[1] & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (buffer.length < 4) return;
        length = buffer.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (buffer.length < 10) return;
        length = Number(buffer.readBigUInt64BE(2));
        offset = 10;
      }
      const maskAt = offset;
      if (masked) offset += 4;
      if (buffer.length < offset + length) return;
      const payload = Buffer.from(buffer.subarray(offset, offset + length));
      // §5.3: client frames are masked with the 4-byte key.
      if (masked) for (let i = 0; i < length; i++) payload[i] ^= buffer[maskAt + (i & 3)];
      buffer = buffer.subarray(offset + length);
      if (opcode === 0x1) onText(payload.toString('utf8'));
      else if (opcode === 0x9) frame(0xa, payload);
      else if (opcode === 0x8) {
        // §5.5.1: answer a close with a close, then end the connection.
        if (!closed) frame(0x8, payload.subarray(0, 2));
        closed = true;
        socket.end();
      }
    }
  });
  socket.on('error', () => {});
  socket.on('close', () => {
    closed = true;
    onGone();
  });
  return peer;
}

export async function startFakeDiscord(token: string) {
  const requests: FakeDiscordRequest[] = [];
  const closedDms = new Set<string>();
  const unknownUsers = new Set<string>();
  /** Discord user id → their DM channel with the bot. */
  const channels = new Map<string, string>();
  const messages = new Map<string, FakeMessage>();
  const interactions = new Map<string, FakeInteraction>();
  const byToken = new Map<string, FakeInteraction>();
  const locales = new Map<string, string>();
  /** Scripted answers per route, each optionally for one path only. */
  const scripted: Partial<Record<Route, Array<{ answer: Scripted; path?: string }>>> = {};
  let commands: Array<Record<string, unknown>> = [];
  /** Identify payloads received (what the bot asked for: intents, …). */
  const identifies: Array<Record<string, unknown>> = [];
  const sessions = new Set<{ peer: WsPeer; seq: number }>();
  /** Every open gateway connection, identified or not. */
  const peers = new Set<WsPeer>();
  let snowflake = 1_300_000_000_000_000_000n;
  const nextId = () => String(++snowflake);
  let wsUrl = '';

  const userOf = (id: string): DiscordUser => ({
    id,
    username: `user${id.slice(-4)}`,
    global_name: null,
    discriminator: '0',
    avatar: null,
  });
  const dmChannelOf = (recipient: string) => {
    const id = channels.get(recipient) ?? nextId();
    channels.set(recipient, id);
    return { id, type: 1, last_message_id: null, flags: 0, recipients: [userOf(recipient)] };
  };
  const newMessage = (channelId: string, body: Record<string, unknown>, flags = 0): FakeMessage => ({
    id: nextId(),
    channel_id: channelId,
    type: 0,
    content: String(body.content ?? ''),
    components: (body.components as FakeMessage['components']) ?? [],
    flags: Number(body.flags ?? flags),
    author: botUser,
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
  const edit = (message: FakeMessage, body: Record<string, unknown>) => {
    if ('content' in body) message.content = String(body.content ?? '');
    if ('components' in body) message.components = (body.components as FakeMessage['components']) ?? [];
    message.edited_timestamp = new Date().toISOString();
    return message;
  };

  /** The webhook token's interaction while it may still be used (15 minutes). */
  const liveToken = (t: string) => {
    const i = byToken.get(t);
    return i?.callback && Date.now() - i.dispatchedAt <= INTERACTION_TOKEN_MS ? i : undefined;
  };

  function interactionCallback(i: FakeInteraction, body: Record<string, unknown>): [number, unknown] {
    const type = Number(body.type);
    const data = (body.data ?? {}) as Record<string, unknown>;
    if (![4, 5, 6, 7].includes(type) || (i.type === 2 && type > 5))
      return [400, { message: 'Invalid Form Body', code: 50035 }];
    i.callback = { type, data };
    if (type === 4 || type === 5) {
      i.reply = newMessage(channels.get(i.userId) ?? '0', type === 5 ? { ...data, content: '' } : data);
      if (type === 4) i.settled = true;
    }
    const attached = i.messageId ? messages.get(i.messageId) : undefined;
    if (type === 7 && attached) {
      edit(attached, data);
      i.settled = true;
    }
    return [204, null];
  }

  function route(method: string, path: string): { route: Route | 'other'; m: RegExpExecArray | null } {
    const table: Array<[string, Route, RegExp]> = [
      ['POST', 'channels', /^\/api\/v10\/users\/@me\/channels$/],
      ['POST', 'messages', /^\/api\/v10\/channels\/(\d+)\/messages$/],
      ['PATCH', 'edit', /^\/api\/v10\/channels\/(\d+)\/messages\/(\d+)$/],
      ['GET', 'gateway', /^\/api\/v10\/gateway\/bot$/],
      ['PUT', 'commands', /^\/api\/v10\/applications\/(\d+)\/commands$/],
      ['POST', 'callback', /^\/api\/v10\/interactions\/(\d+)\/([^/]+)\/callback$/],
      ['PATCH', 'original', /^\/api\/v10\/webhooks\/(\d+)\/([^/]+)\/messages\/@original$/],
      ['POST', 'followup', /^\/api\/v10\/webhooks\/(\d+)\/([^/]+)$/],
    ];
    for (const [verb, name, re] of table) {
      const m = re.exec(path);
      if (m && verb === method) return { route: name, m };
    }
    return { route: 'other', m: null };
  }

  function handle(method: string, path: string, body: Record<string, unknown>, auth: string | undefined) {
    const { route: name, m } = route(method, path);
    const own = name === 'callback' || name === 'original' || name === 'followup';
    if (!own && auth !== `Bot ${token}`) return [401, { message: '401: Unauthorized', code: 0 }] as const;
    if (name === 'other' || !m) return [404, { message: '404: Not Found', code: 0 }] as const;
    const queued = scripted[name] ?? [];
    const at = queued.findIndex((q) => !q.path || q.path === path);
    const next = at >= 0 ? queued.splice(at, 1)[0].answer : undefined;
    if (next?.status === 429)
      return [
        429,
        { message: 'You are being rate limited.', retry_after: next.retryAfter, global: false },
        { 'retry-after': String(next.retryAfter), 'x-ratelimit-scope': 'user' },
      ] as const;
    if (next) return [next.status, { message: 'Internal Server Error', code: 0 }] as const;

    switch (name) {
      case 'gateway':
        return [
          200,
          {
            url: wsUrl,
            shards: 1,
            session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
          },
        ] as const;
      case 'commands': {
        if (m[1] !== FAKE_BOT_ID || !Array.isArray(body))
          return [400, { message: 'Invalid Form Body', code: 50035 }] as const;
        commands = (body as Array<Record<string, unknown>>).map((c) => ({
          id: nextId(),
          application_id: FAKE_BOT_ID,
          version: nextId(),
          type: 1,
          default_member_permissions: null,
          nsfw: false,
          ...c,
        }));
        return [200, commands] as const;
      }
      case 'channels': {
        const recipient = String(body.recipient_id ?? '');
        if (unknownUsers.has(recipient) || !/^\d+$/.test(recipient))
          return [404, { message: 'Unknown User', code: 10013 }] as const;
        return [200, dmChannelOf(recipient)] as const;
      }
      case 'messages': {
        const recipient = [...channels].find(([, c]) => c === m[1])?.[0];
        if (!recipient) return [404, { message: 'Unknown Channel', code: 10003 }] as const;
        if (closedDms.has(recipient))
          return [403, { message: 'Cannot send messages to this user', code: 50007 }] as const;
        const message = newMessage(m[1], body);
        messages.set(message.id, message);
        return [200, message] as const;
      }
      case 'edit': {
        const message = messages.get(m[2]);
        if (!message || message.channel_id !== m[1])
          return [404, { message: 'Unknown Message', code: 10008 }] as const;
        return [200, edit(message, body)] as const;
      }
      case 'callback': {
        const i = interactions.get(m[1]);
        if (!i || i.token !== m[2] || Date.now() - i.dispatchedAt > INTERACTION_ACK_MS)
          return [404, { message: 'Unknown interaction', code: 10062 }] as const;
        if (i.callback)
          return [400, { message: 'Interaction has already been acknowledged.', code: 40060 }] as const;
        return interactionCallback(i, body);
      }
      case 'original': {
        const i = m[1] === FAKE_BOT_ID ? liveToken(m[2]) : undefined;
        if (!i) return [404, { message: 'Unknown Webhook', code: 10015 }] as const;
        const target = i.reply ?? (i.messageId ? messages.get(i.messageId) : undefined);
        if (!target) return [404, { message: 'Unknown Message', code: 10008 }] as const;
        i.settled = true;
        return [200, edit(target, body)] as const;
      }
      case 'followup': {
        const i = m[1] === FAKE_BOT_ID ? liveToken(m[2]) : undefined;
        if (!i) return [404, { message: 'Unknown Webhook', code: 10015 }] as const;
        const message = newMessage(channels.get(i.userId) ?? '0', body);
        i.followups.push(message);
        i.settled = true;
        return [200, message] as const;
      }
    }
  }

  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      // discord.js percent-encodes path segments (`%40original`); Discord routes on the decoded path.
      let path = (req.url ?? '').split('?')[0];
      try {
        path = decodeURIComponent(path);
      } catch {}
      let body: Record<string, unknown> = {};
      try {
        body = raw ? JSON.parse(raw) : {};
      } catch {}
      const [status, json, headers] = handle(req.method ?? '', path, body, req.headers.authorization);
      requests.push({
        method: req.method ?? '',
        path,
        route: route(req.method ?? '', path).route,
        body,
        at: Date.now(),
        status,
      });
      if (status === 204) {
        res.writeHead(204);
        res.end();
        return;
      }
      res.writeHead(status, { 'content-type': 'application/json', ...(headers ?? {}) });
      res.end(JSON.stringify(json));
    });
  });

  server.on('upgrade', (req, socket) => {
    const session = { peer: null as unknown as WsPeer, seq: 0 };
    const peer = acceptWebSocket(
      req,
      socket,
      (text) => {
        let payload: { op?: number; d?: Record<string, unknown> };
        try {
          payload = JSON.parse(text);
        } catch {
          return peer.close(4002, 'Error while decoding payload.');
        }
        if (payload.op === 1) peer.send({ op: 11, d: null, s: null, t: null });
        else if (payload.op === 2) identify(session, payload.d ?? {});
        else if (payload.op === 6) peer.send({ op: 9, d: false, s: null, t: null });
      },
      () => {
        sessions.delete(session);
        peers.delete(peer);
      },
    );
    session.peer = peer;
    peers.add(peer);
    peer.send({ op: 10, d: { heartbeat_interval: HEARTBEAT_MS }, s: null, t: null });
  });

  function identify(session: { peer: WsPeer; seq: number }, d: Record<string, unknown>) {
    if (d.token !== token) return session.peer.close(4004, 'Authentication failed.');
    identifies.push(d);
    sessions.add(session);
    session.peer.send({
      op: 0,
      t: 'READY',
      s: ++session.seq,
      d: {
        v: 10,
        user: { ...botUser, verified: true, mfa_enabled: false, flags: 0 },
        guilds: [],
        session_id: randomBytes(16).toString('hex'),
        resume_gateway_url: wsUrl,
        shard: d.shard ?? [0, 1],
        application: { id: FAKE_BOT_ID, flags: 0 },
      },
    });
  }

  function dispatch(payload: Record<string, unknown>) {
    const [session] = sessions;
    if (!session) throw new Error('fake Discord: no bot is connected to the gateway');
    session.peer.send({ op: 0, t: 'INTERACTION_CREATE', s: ++session.seq, d: payload });
  }

  async function settledOf(i: FakeInteraction, ms = 5_000): Promise<FakeInteraction> {
    const until = Date.now() + ms;
    while (!i.settled) {
      if (Date.now() > until) throw new Error(`fake Discord: interaction ${i.id} got no answer`);
      await new Promise((r) => setTimeout(r, 10));
    }
    return i;
  }

  const newInteraction = (type: 2 | 3, userId: string, messageId?: string): FakeInteraction => {
    const i: FakeInteraction = {
      id: nextId(),
      token: `aW50ZXJhY3Rpb24${randomBytes(24).toString('base64url')}`,
      type,
      userId,
      dispatchedAt: Date.now(),
      messageId,
      followups: [],
      settled: false,
    };
    interactions.set(i.id, i);
    byToken.set(i.token, i);
    return i;
  };
  const common = (i: FakeInteraction) => ({
    id: i.id,
    application_id: FAKE_BOT_ID,
    type: i.type,
    token: i.token,
    version: 1,
    locale: locales.get(i.userId) ?? 'en-US',
    app_permissions: '2248473465835073',
    entitlements: [],
    attachment_size_limit: 10_485_760,
  });
  const GUILD_ID = '1200000000000000001';
  const GUILD_CHANNEL_ID = '1200000000000000002';

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  wsUrl = `ws://${origin}`;

  return {
    /** DISCORD_API_URL for the app. */
    url: `http://${origin}/api`,
    requests,
    /** What the bot registered with PUT /applications/{id}/commands. */
    get commands() {
      return commands;
    },
    identifies,
    /** Resolves when a bot session is identified and has registered its commands. */
    async botReady(ms = 10_000) {
      const until = Date.now() + ms;
      while (sessions.size === 0 || commands.length === 0) {
        if (Date.now() > until) throw new Error('fake Discord: the bot did not connect');
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    /** The Discord client language of a user (Discord sends it as the interaction's `locale`). */
    setLocale(discordId: string, locale: string) {
      locales.set(discordId, locale);
    },
    /**
     * A user runs a slash command (`queue join`, `link ABCD2345`) in the server's channel (or in the
     * DM with the bot) and waits for the answer. Only registered commands and their declared
     * options can be used, as in Discord's client: a subcommand (option type 1) or string options
     * (type 3) in their order (interactions/application-commands#application-command-object-application-command-option-type).
     */
    async slash(discordId: string, line: string, where: 'guild' | 'dm' = 'guild') {
      const [command, ...words] = line.split(' ');
      const registered = commands.find((c) => c.name === command);
      const declared = (registered?.options as Array<{ name: string; type: number }> | undefined) ?? [];
      let options: Array<Record<string, unknown>>;
      if (declared[0]?.type === 1) {
        if (!declared.some((o) => o.type === 1 && o.name === words[0]) || words.length !== 1)
          throw new Error(`fake Discord: /${line} does not match a registered subcommand`);
        options = [{ name: words[0], type: 1, options: [] }];
      } else {
        if (words.length > declared.length || declared.some((o) => o.type !== 3))
          throw new Error(`fake Discord: /${line} does not match the registered options`);
        options = words.map((value, k) => ({ name: declared[k].name, type: 3, value }));
      }
      if (!registered) throw new Error(`fake Discord: /${command} is not registered`);
      const i = newInteraction(2, discordId);
      const user = userOf(discordId);
      const data = { id: registered.id, name: command, type: 1, options };
      dispatch({
        ...common(i),
        data,
        ...(where === 'guild'
          ? {
              guild_id: GUILD_ID,
              guild: { id: GUILD_ID, locale: 'en-US', features: [] },
              guild_locale: 'en-US',
              channel_id: GUILD_CHANNEL_ID,
              channel: { id: GUILD_CHANNEL_ID, type: 0, guild_id: GUILD_ID, name: 'pug', flags: 0 },
              member: {
                user,
                roles: [],
                joined_at: '2026-01-01T00:00:00.000Z',
                deaf: false,
                mute: false,
                flags: 0,
                pending: false,
                nick: null,
                avatar: null,
                premium_since: null,
                permissions: '2248473465835073',
              },
              authorizing_integration_owners: { '0': GUILD_ID },
              context: 0,
            }
          : {
              channel_id: dmChannelOf(discordId).id,
              channel: dmChannelOf(discordId),
              user,
              authorizing_integration_owners: { '0': GUILD_ID },
              context: 1,
            }),
      });
      return settledOf(i);
    },
    /** A user presses a button on a message in their DM with the bot and waits for the outcome. */
    async press(discordId: string, messageId: string, customId: string) {
      const message = messages.get(messageId);
      if (!message || message.channel_id !== channels.get(discordId))
        throw new Error('fake Discord: that message is not in this user’s DMs');
      if (!message.components.some((row) => row.components.some((b) => b.custom_id === customId)))
        throw new Error('fake Discord: the message has no such button');
      const i = newInteraction(3, discordId, messageId);
      const channel = dmChannelOf(discordId);
      dispatch({
        ...common(i),
        data: { custom_id: customId, component_type: 2 },
        channel_id: channel.id,
        channel,
        user: userOf(discordId),
        message: { ...message },
        authorizing_integration_owners: { '0': GUILD_ID },
        context: 1,
      });
      return settledOf(i);
    },
    /** The bot's messages in a user's DMs, oldest first, as they look now. */
    dms: (discordId: string) =>
      [...messages.values()].filter((m) => m.channel_id === channels.get(discordId)),
    /** DMs delivered to a Discord user: the contents as first sent. */
    delivered: (discordId: string) =>
      requests
        .filter(
          (r) =>
            r.route === 'messages' && r.status === 200 && channels.get(discordId) === r.path.split('/')[4],
        )
        .map((r) => String(r.body.content)),
    /** The bot's gateway session drops (as when Discord restarts a gateway node). */
    disconnectBot() {
      for (const s of sessions) s.peer.close(4000, 'Unknown error.');
      sessions.clear();
    },
    /** The player turns "allow direct messages from server members" off (true) or on (false). */
    closeDms(discordId: string, closed = true) {
      if (closed) closedDms.add(discordId);
      else closedDms.delete(discordId);
    },
    unknownUser(discordId: string) {
      unknownUsers.add(discordId);
    },
    /** The next request to `name` (or to that exact `path`) gets `answer` instead. */
    failNext(name: Route, answer: Scripted, path?: string) {
      scripted[name] = [...(scripted[name] ?? []), { answer, path }];
    },
    /** Whether an answer is ephemeral (flags EPHEMERAL, resources/message#message-object-message-flags). */
    ephemeral: (message: { flags: number } | undefined) => ((message?.flags ?? 0) & EPHEMERAL) !== 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const peer of peers) peer.close(1001, 'Going away');
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export type FakeDiscord = Awaited<ReturnType<typeof startFakeDiscord>>;
