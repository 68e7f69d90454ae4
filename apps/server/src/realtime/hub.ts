/**
 * Socket.IO on /socket. Owns the `authenticate {key}` → `authenticated` handshake, the per-user
 * room `private:<userId>`, validated event handlers and typed emit helpers. With REDIS_URL the
 * Redis adapter fans events out across instances.
 *
 * Features register handlers with `on(event, handler)`. The hub is typed by a map of event names to
 * payload schemas (the app's is `clientEvents` of @openpug/shared): only a name of the map can be
 * registered, once, and the payload is validated with its schema from the map. A refusal is
 * answered through the ack callback (or a SOCKET_ERROR event) with a catalogue key, and the
 * handler never runs. A payload with a NUL character (which the database
 * cannot store) is refused the same way. Before any of that, every event spends from the socket's
 * budget and must be one this server knows (budget.ts).
 */
import { createHash } from 'node:crypto';
import type { Server as HttpServer } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import {
  type AuthenticatePayload,
  type ClientEventSchemas,
  type ClientToServerEvents,
  clientEvents,
  type ErrorKey,
  type HandshakeEvent,
  handshakeEvents,
  type ServerToClientEvents,
  SOCKET_PATH,
  type SocketReply,
} from '@openpug/shared';
import { Server, type Socket } from 'socket.io';
import type { z } from 'zod';
import { batched } from '../lib/batch';
import { AppError, keyOfZodIssues } from '../lib/errors';
import { containsNul } from '../lib/input';
import type { Tokens } from '../modules/auth';
import { addressBudgets, SOCKET_BUDGET, socketBudget } from './budget';

export interface SocketData {
  userId?: string;
  /** Which session token signed this socket in (hashed): a password change spares the caller's own. */
  tokenHash?: string;
}

/** The hash a socket keeps of its session token (SocketData.tokenHash). */
export const sessionTokenHash = (token: string) => createHash('sha256').update(token).digest('base64url');
/**
 * Signals one instance sends the others (signalInstances), without a payload. A module declares
 * the ones it sends by augmenting this interface, as it does DomainEvents:
 *
 *   declare module '../../realtime/hub' { interface InstanceSignals { 'queue.count-due': true } }
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the modules' declarations (above)
export interface InstanceSignals {}
type InstanceEvents = { [K in keyof InstanceSignals]: () => void };
export type AppServer = Server<ClientToServerEvents, ServerToClientEvents, InstanceEvents, SocketData>;
export type AppSocket = Socket<ClientToServerEvents, ServerToClientEvents, InstanceEvents, SocketData>;
type Emit = ServerToClientEvents;

export type Ack = (reply: SocketReply) => void;

export const userRoom = (userId: string) => `private:${userId}`;

/** How long close() waits for running handlers to answer before it cuts the connections. */
const DRAIN_MS = 5_000;

export interface SocketHandlerOptions {
  /** Default true: only authenticated sockets may send this event. */
  auth?: boolean;
}

/** Client event names and their payload schemas: what a hub answers. */
export type EventSchemas = Record<string, z.ZodType>;

export interface Realtime<M extends EventSchemas = ClientEventSchemas> {
  io: AppServer;
  /**
   * Registers the handler of a client event of the map on every socket; it gets the payload as
   * the map's schema parses it. A name outside the map, a handshake event or a second handler for
   * a name throws (a wiring mistake, found at start-up).
   */
  on<E extends Exclude<keyof M & string, HandshakeEvent>>(
    event: E,
    handler: (socket: AppSocket, data: z.output<M[E]>) => unknown | Promise<unknown>,
    options?: SocketHandlerOptions,
  ): void;
  toUser<E extends keyof Emit>(userId: string, event: E, ...args: Parameters<Emit[E]>): void;
  /**
   * The same event to every socket of these users, encoded once (Socket.IO's broadcast to many
   * rooms; one Redis publish with the adapter): an accept phase's ten hear each of its events
   * through one call, not ten (issue 20 target 4).
   */
  toUsers<E extends keyof Emit>(userIds: readonly string[], event: E, ...args: Parameters<Emit[E]>): void;
  toRoom<E extends keyof Emit>(room: string, event: E, ...args: Parameters<Emit[E]>): void;
  toAll<E extends keyof Emit>(event: E, ...args: Parameters<Emit[E]>): void;
  /** To every socket on this instance only (with Redis, toAll reaches every instance). */
  toLocal<E extends keyof Emit>(event: E, ...args: Parameters<Emit[E]>): void;
  /**
   * Tells every other instance (one Redis publish, Socket.IO's serverSideEmit); alone, without
   * Redis, there is nobody to tell. Delivery is as sure as Redis pub/sub: nothing is kept for an
   * instance that is away (`realtime.rejoined` covers that).
   */
  signalInstances(signal: keyof InstanceSignals): void;
  /** Runs `fn` each time another instance sends this signal. */
  onInstanceSignal(signal: keyof InstanceSignals, fn: () => void): void;
  /** Attaches a cluster adapter (useRedisAdapter): from then on there may be other instances. */
  useAdapter(adapter: Parameters<AppServer['adapter']>[0]): void;
  /** Runs after a socket authenticates (presence, rooms to join). */
  onAuthenticated(fn: (socket: AppSocket, userId: string) => void | Promise<void>): void;
  /** Runs when an authenticated socket disconnects or logs out. */
  onSignedOut(fn: (socket: AppSocket, userId: string) => void | Promise<void>): void;
  /**
   * Number of this user's authenticated sockets across all instances. Calls in the same turn of
   * the event loop share one cross-instance request (socketCounts).
   */
  socketCount(userId: string): Promise<number>;
  /** socketCount of many users in one request (with Redis, one round to every instance). */
  socketCounts(userIds: readonly string[]): Promise<Map<string, number>>;
  /** Users with at least one authenticated socket on any instance. */
  connectedUserIds(): Promise<Set<string>>;
  /**
   * True once close() has begun. The sign-outs it causes then settle nothing: their users are
   * moving to another instance or to this one's next start, which settles presence and queue
   * graces (presence's start-up reset or sweep, the queue's restartDisconnectGraces), and the
   * Redis adapter must not be asked anything while it closes.
   */
  readonly closing: boolean;
  close(): Promise<void>;
}

interface RealtimeOptions<M extends EventSchemas> {
  /** The client events this hub may answer (besides the handshake): `clientEvents` in the app. */
  events: M;
  tokens: Tokens;
  /** Which peers may name the client address in X-Forwarded-For (TRUST_PROXY, as Fastify uses it). */
  trustProxy?: string | boolean | ((addr: string, hop: number) => boolean);
  corsOrigin?: string;
  /** DRAIN_NOTICE_MS: how long close() keeps answering after `server-draining` (0: cut at once). */
  drainNoticeMs?: number;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/** TRUST_PROXY in the form proxy-addr takes (a hop count is already a function here). */
function compileTrust(
  value: string | boolean | ((addr: string, hop: number) => boolean),
): (addr: string, hop: number) => boolean {
  if (typeof value === 'function') return value;
  if (value === true) return () => true;
  if (value === false) return () => false;
  return proxyAddr.compile(value.split(',').map((v) => v.trim()));
}

export function createRealtime<M extends EventSchemas>(
  server: HttpServer,
  opts: RealtimeOptions<M>,
): Realtime<M> {
  // Set once close() has begun: new handshakes are refused, so a client that reconnects lands
  // on another instance (the proxy's next try) rather than on this one, which is about to go.
  let draining = false;
  // Set by useAdapter: other instances may exist, and signalInstances reaches them.
  let clustered = false;
  const perAddress = addressBudgets(Date.now);
  const trust = compileTrust(opts.trustProxy ?? false);
  const io: AppServer = new Server(server, {
    path: SOCKET_PATH,
    serveClient: false,
    cors: opts.corsOrigin ? { origin: opts.corsOrigin } : undefined,
    maxHttpBufferSize: SOCKET_BUDGET.maxPayloadBytes,
    allowRequest: (req, callback) => {
      if (draining) return callback('draining', false);
      // An address shut out after an abuse disconnect: refused before any handshake work.
      if (!perAddress.admits(proxyAddr(req, trust))) return callback('TOO_MANY_REQUESTS', false);
      callback(null, true);
    },
  });
  /**
   * One fetchSockets for many users: with the Redis adapter each call is a request every other
   * instance must answer within 5 s, and 2,000 sockets closing together (a proxy restart, the end
   * of the load bench) made 4,000 of them, which timed out by the hundreds and failed the presence
   * and queue sign-out hooks (bench/RESULTS.md, issue 20 target 5).
   */
  const socketCounts = async (userIds: readonly string[]): Promise<Map<string, number>> => {
    const counts = new Map(userIds.map((id) => [id, 0]));
    if (userIds.length === 0) return counts;
    const userOf = new Map(userIds.map((id) => [userRoom(id), id]));
    for (const socket of await io.in([...userOf.keys()]).fetchSockets()) {
      for (const room of socket.rooms) {
        const id = userOf.get(room);
        if (id !== undefined) counts.set(id, (counts.get(id) ?? 0) + 1);
      }
    }
    return counts;
  };
  const socketCountBatched = batched(socketCounts, 0);
  const handlers: Array<(socket: AppSocket) => void> = [];
  // The events with a handler: anything else is refused before it reaches one.
  const knownEvents = new Set<string>(handshakeEvents);
  const authenticatedHooks: Array<(socket: AppSocket, userId: string) => void | Promise<void>> = [];
  const signedOutHooks: Array<(socket: AppSocket, userId: string) => void | Promise<void>> = [];

  const runHooks = async (
    hooks: typeof authenticatedHooks,
    socket: AppSocket,
    userId: string,
  ): Promise<void> => {
    for (const hook of hooks) {
      try {
        await hook(socket, userId);
      } catch (err) {
        opts.log.error({ err }, 'socket hook failed');
      }
    }
  };

  const signOut = async (socket: AppSocket) => {
    const userId = socket.data.userId;
    if (!userId) return;
    socket.data.userId = undefined;
    await socket.leave(userRoom(userId));
    await runHooks(signedOutHooks, socket, userId);
  };

  const authenticate = async (socket: AppSocket, payload: AuthenticatePayload) => {
    const claims = await opts.tokens.verify(payload.key);
    if (!claims) {
      socket.emit('unauthorized', { msg: 'BAD_TOKEN' });
      return;
    }
    if (socket.data.userId && socket.data.userId !== claims.userId) await signOut(socket);
    socket.data.tokenHash = sessionTokenHash(payload.key);
    if (socket.data.userId === claims.userId) {
      socket.emit('authenticated', { userId: claims.userId });
      return;
    }
    socket.data.userId = claims.userId;
    await socket.join(userRoom(claims.userId));
    await runHooks(authenticatedHooks, socket, claims.userId);
    socket.emit('authenticated', { userId: claims.userId });
  };

  // Sign-outs still running: close() waits for them, so their presence checks (which may ask the
  // other instances over Redis) finish before the Redis connections quit. A publish on a closed
  // connection is a rejection the Redis adapter never catches.
  const signingOut = new Set<Promise<void>>();
  // Handlers still running: close() lets them answer (their acks) before it cuts the connections,
  // so a rolling restart loses no acknowledgement of what it did.
  const inFlight = new Set<Promise<void>>();
  const signOutTracked = (socket: AppSocket, what: string) => {
    const done = signOut(socket).catch((err) => opts.log.error({ err }, `${what} failed`));
    signingOut.add(done);
    void done.finally(() => signingOut.delete(done));
  };

  io.on('connection', (socket) => {
    const budget = socketBudget(Date.now);
    const address = proxyAddr(socket.request, trust);
    socket.use(([event, ...args], next) => {
      const refuse = (msg: ErrorKey) => {
        const ack = args[args.length - 1];
        if (typeof ack === 'function') ack({ ok: false, msg });
        else socket.emit('SOCKET_ERROR', { event: String(event), msg });
      };
      const verdict = budget.spend(!!socket.data.userId);
      if (verdict === 'disconnect') {
        opts.log.warn({ event: String(event) }, 'socket disconnected: over its event budget');
        perAddress.shutOut(address);
        socket.disconnect(true);
        return;
      }
      if (verdict === 'over' || !perAddress.take(address)) return refuse('TOO_MANY_REQUESTS');
      if (!knownEvents.has(event)) return refuse('INVALID_INPUT');
      next();
    });
    socket.on('authenticate', (payload: unknown) => {
      const parsed = clientEvents.authenticate.safeParse(payload);
      if (!parsed.success) {
        socket.emit('unauthorized', { msg: 'BAD_TOKEN' });
        return;
      }
      authenticate(socket, parsed.data).catch((err) => opts.log.error({ err }, 'authenticate failed'));
    });
    socket.on('logout', () => signOutTracked(socket, 'logout'));
    socket.on('disconnect', () => signOutTracked(socket, 'disconnect'));
    for (const attach of handlers) attach(socket);
  });

  return {
    io,
    on(event, handler, options = {}) {
      if (!Object.hasOwn(opts.events, event) || knownEvents.has(event))
        throw new Error(`socket event ${event}: not in the event map, or registered already`);
      const schema: M[typeof event] = opts.events[event];
      const needsAuth = options.auth ?? true;
      knownEvents.add(event);
      handlers.push((socket) => {
        // Socket.IO's typed `on` cannot take a generic event name: the plain view takes the name
        // the map checked above.
        const plain: Socket = socket;
        const name: string = event;
        // Socket.IO passes the ack, if any, as the last argument.
        plain.on(name, async (...args: unknown[]) => {
          const ack = typeof args[args.length - 1] === 'function' ? (args.pop() as Ack) : undefined;
          const refuse = (msg: ErrorKey) => {
            if (ack) ack({ ok: false, msg });
            else socket.emit('SOCKET_ERROR', { event, msg });
          };
          if (needsAuth && !socket.data.userId) return refuse('UNAUTHORIZED');
          if (containsNul(args[0])) return refuse('INVALID_INPUT');
          const parsed = schema.safeParse(args[0]);
          if (!parsed.success) return refuse(keyOfZodIssues(parsed.error.issues));
          const running = (async () => {
            try {
              const data = await handler(socket, parsed.data);
              ack?.({ ok: true, data });
            } catch (err) {
              if (err instanceof AppError) return refuse(err.key);
              opts.log.error({ err, event }, 'socket handler failed');
              refuse('ERROR');
            }
          })();
          inFlight.add(running);
          await running.finally(() => inFlight.delete(running));
        });
      });
    },
    toUser(userId, event, ...args) {
      io.to(userRoom(userId)).emit(event, ...args);
    },
    toUsers(userIds, event, ...args) {
      if (userIds.length > 0) io.to(userIds.map(userRoom)).emit(event, ...args);
    },
    toRoom(room, event, ...args) {
      io.to(room).emit(event, ...args);
    },
    toAll(event, ...args) {
      io.emit(event, ...args);
    },
    toLocal(event, ...args) {
      io.local.emit(event, ...args);
    },
    signalInstances(signal) {
      // The in-memory adapter only warns on serverSideEmit.
      if (clustered) io.serverSideEmit(signal);
    },
    onInstanceSignal(signal, fn) {
      io.on(signal, fn);
    },
    useAdapter(adapter) {
      io.adapter(adapter);
      clustered = true;
    },
    onAuthenticated(fn) {
      authenticatedHooks.push(fn);
    },
    onSignedOut(fn) {
      signedOutHooks.push(fn);
    },
    socketCount: (userId) => socketCountBatched(userId),
    socketCounts,
    async connectedUserIds() {
      const ids = new Set<string>();
      for (const socket of await io.fetchSockets()) if (socket.data.userId) ids.add(socket.data.userId);
      return ids;
    },
    get closing() {
      return draining;
    },
    async close() {
      draining = true;
      // A rolling restart loses nothing in flight: the clients are told to move first. Each stops
      // sending here, waits for the acks it is owed and then drops its transport; until then
      // this instance keeps answering, also events that crossed the notice on the wire.
      const noticeMs = opts.drainNoticeMs ?? 0;
      if (noticeMs > 0 && io.engine.clientsCount > 0) {
        io.local.emit('server-draining'); // local: with Redis, io.emit would reach every instance
        const until = Date.now() + noticeMs;
        while (io.engine.clientsCount > 0 && Date.now() < until) {
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
      }
      // Not io.close(): that would also close the HTTP server, which Fastify owns. Only the
      // connections are closed, without a Socket.IO disconnect packet: clients then see a lost
      // transport and reconnect by themselves (to another instance behind the proxy, or to this
      // one once it is back), whereas a server disconnect tells them to stay away.
      const drained = Promise.allSettled([...inFlight]);
      await Promise.race([drained, new Promise((resolve) => setTimeout(resolve, DRAIN_MS).unref())]);
      io.engine.close();
      await new Promise((resolve) => setImmediate(resolve)); // disconnect handlers have started
      await Promise.allSettled([...signingOut]);
      await io.of('/').adapter.close?.();
    },
  };
}

/**
 * Attaches the Redis adapter so several instances deliver each other's events. Redis pub/sub keeps
 * nothing for a subscriber that is away: after a lost connection, ioredis subscribes again when it
 * is back, and `onRejoined` runs once those subscriptions hold, so the app can send its own
 * sockets what the others broadcast in between (the queue count was seen stuck at its old value
 * on one instance after a Redis restart: apps/server/test/dependencies.test.ts).
 */
export async function useRedisAdapter(
  realtime: Realtime,
  redisUrl: string,
  key = 'openpug',
  onRejoined: () => void = () => {},
): Promise<() => Promise<void>> {
  const [{ createAdapter }, { Redis }] = await Promise.all([
    import('@socket.io/redis-adapter'),
    import('ioredis'),
  ]);
  // Named, so CLIENT LIST tells an operator (and a test) whose connection is whose.
  // Auto-pipelining (ioredis built/autoPipelining.js: commands wait for setImmediate and go in one
  // write): every broadcast is a PUBLISH, and a batch's effects (a status push to each of a crowd's
  // players) are hundreds in one turn of the event loop. One write each woke Redis and handed it
  // the core each time: ~250 ms of every 3 s of an instance in the two-instance bench's first
  // crowd (issue 20 target 5, bench/RESULTS.md session 29). The subscriber only subscribes.
  const pub = new Redis(redisUrl, {
    lazyConnect: true,
    connectionName: `${key}:pub`,
    enableAutoPipelining: true,
  });
  const sub = pub.duplicate({ connectionName: `${key}:sub`, enableAutoPipelining: false });
  await Promise.all([pub.connect(), sub.connect()]);
  realtime.useAdapter(createAdapter(publishHandled(pub), sub, { key }));
  // Every later `ready` is a reconnection. ioredis writes the subscriptions again before it emits
  // `ready` (built/redis/event_handler.js readyHandler; the event follows on the next tick), so a
  // PING sent now is answered after them: from then on, nothing another instance sends is missed.
  sub.on('ready', () => {
    sub.ping().then(onRejoined, () => undefined);
  });
  return async () => {
    await Promise.allSettled([pub.quit(), sub.quit()]);
  };
}

/**
 * The adapter's pub client, with a rejection handler on the promise of every `publish`.
 * @socket.io/redis-adapter 8.3 drops those promises (dist/index.js, e.g. `broadcast` and every
 * cross-instance request: `this.pubClient.publish(channel, msg);`), so a publish queued while the
 * connection closes — Redis restarting, this instance stopping — rejected with nobody listening:
 * ioredis flushes its queue with "Connection is closed." (built/redis/event_handler.js, `close`),
 * an unhandled rejection in the server (and a red test run). The same upstream pattern:
 * socketio/socket.io-redis-emitter#139. The packet is lost either way, which the adapter's docs
 * accept while Redis is away; a caller that awaits the publish still sees the error.
 */
export function publishHandled<T extends { publish: (...args: never[]) => Promise<unknown> }>(client: T): T {
  return new Proxy(client, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop !== 'publish' || typeof value !== 'function') return value;
      return (...args: never[]) => {
        const sent = (value as T['publish']).apply(target, args);
        sent.catch(() => {});
        return sent;
      };
    },
  });
}
