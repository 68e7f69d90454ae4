/**
 * What every module stands on, made before any of them registers (app.ts lists the modules):
 * - the Fastify instance: zod validation and serialisation, the error catalogue's answers, request
 *   ids, NUL refusal, security headers and compression;
 * - the app's context: the tokens with the session-generation check, the realtime hub (with the
 *   Redis adapter when REDIS_URL is set), the event bus, the job scheduler, the mailer, the voice
 *   server and every module's empty state slot;
 * - after the metrics hook (app.ts), the API surface: the OpenAPI document at /api/docs and the
 *   auth guard.
 */
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { clientEvents } from '@openpug/shared';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { type AppContext, createModuleState } from './context';
import { EventBus } from './events';
import { Scheduler } from './jobs';
import { frameworkErrors, installErrorHandling } from './lib/errors';
import { refuseNulCharacters } from './lib/input';
import { Priority } from './lib/priority';
import { installRequestIdHeader, loggerOptions, requestIdOptions } from './logging';
import { userLoader } from './modules/accounts/service';
import { installAuthGuard, type Tokens, withSessionCheck } from './modules/auth';
import { createMailer } from './modules/mail/service';
import { createVoiceServer } from './modules/voice';
import { createRealtime, useRedisAdapter } from './realtime/hub';
import { installCompression, installSecurityHeaders } from './web';

export interface BuildOptions {
  /** Logger setting for Fastify; tests pass false, or `{ stream }` to capture the lines. */
  logger?: boolean | object;
  webDist?: string;
  /** Sees every route as it registers (tests enumerate the whole API with it). */
  onRoute?: (route: RouteOptions) => void;
}

/** What main.ts and the tests hand to buildApp; the platform makes the rest of the context. */
export type AppBase = Omit<
  AppContext,
  'tokens' | 'realtime' | 'bus' | 'jobs' | 'priority' | 'mailer' | 'voice' | 'log' | 'state'
> &
  Partial<Pick<AppContext, 'mailer' | 'voice'>> & {
    /** The bare tokens: the platform adds the session check (withSessionCheck). */
    tokens: Tokens;
  };

export type AppInstance = FastifyInstance & { ctx: AppContext };

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

/** A hop count trusts that many proxies in front of us (as proxy-addr does for a number). */
function trustProxyOption(
  value: string | number | boolean,
): string | boolean | ((addr: string, hop: number) => boolean) {
  return typeof value === 'number' ? (_addr, hop) => hop < value : value;
}

async function createServer(base: AppBase, options: BuildOptions) {
  const app = Fastify({
    // Redaction, serializers and request ids of logging.ts; an object given here (a stream) adds to them.
    logger:
      options.logger === false
        ? false
        : loggerOptions(base.config, typeof options.logger === 'object' ? options.logger : {}),
    ...requestIdOptions,
    bodyLimit: 1024 * 1024,
    trustProxy: trustProxyOption(base.config.TRUST_PROXY),
    // Ids in our URLs are short; refuse absurd ones before routing.
    routerOptions: { maxParamLength: 200 },
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
  installRequestIdHeader(app);
  refuseNulCharacters(app);
  installSecurityHeaders(app, base.config);
  await installCompression(app);
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  return app;
}

/** The server and the context, decorated as `app.ctx`; no route is registered yet. */
export async function createPlatform(base: AppBase, options: BuildOptions) {
  const app = await createServer(base, options);
  // A token verifies only while its session generation is the account's current one: a password
  // change or reset ends every session issued before, on HTTP and at socket sign-in. The lookups
  // of one loop turn share a query (a reconnect storm signs thousands in at once); each is still
  // read after it was asked for. The account read is the request's user (installAuthGuard).
  const tokens = withSessionCheck(base.tokens, userLoader(base.db));
  const realtime = createRealtime(app.server, {
    events: clientEvents,
    tokens,
    log: app.log,
    trustProxy: trustProxyOption(base.config.TRUST_PROXY),
    // The notice moves clients to another instance; one instance alone (no Redis adapter) has
    // none, and its clients' refused reconnects kept the stop busy: 19,000 sockets stretched the
    // 2 s notice to 9.25 s (bench/RESULTS.md, session 13). Running handlers still answer first.
    drainNoticeMs: base.config.REDIS_URL ? base.config.DRAIN_NOTICE_MS : 0,
  });
  const ctx: AppContext = {
    ...base,
    tokens,
    realtime,
    log: app.log,
    state: createModuleState(),
    bus: new EventBus(app.log),
    priority: new Priority(),
    // Handlers get this context; `ctx` is set before any job can fire.
    jobs: new Scheduler(base.db, base.clock, app.log, base.config.JOBS_POLL_MS, () => ctx),
    mailer: base.mailer ?? createMailer(base.config, base.db, app.log, () => base.clock.now()),
    voice: base.voice ?? createVoiceServer(base.config, base.db, app.log, () => base.clock.now()),
  };
  app.decorate('ctx', ctx);
  ctx.database.logTo(app.log);
  if (ctx.config.REDIS_URL) {
    const closeRedis = await useRedisAdapter(realtime, ctx.config.REDIS_URL, ctx.config.REDIS_PREFIX, () => {
      if (!realtime.closing) void ctx.bus.emit('realtime.rejoined', {});
    });
    app.addHook('onClose', closeRedis);
  }
  app.addHook('preClose', async () => {
    await realtime.close();
  });
  return { app, ctx };
}

/** The OpenAPI document (`/api/docs`) and the auth guard, which every module's routes rely on. */
export async function installApiSurface(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'openpug API', version: ctx.version },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
  installAuthGuard(app, ctx.tokens);
}
