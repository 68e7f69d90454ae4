/**
 * buildApp(ctx) → the Fastify instance with every module registered. main.ts and the tests build
 * it the same way; only the context differs.
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
import { backupModule } from './backup/routes';
import { type AppContext, createModuleState } from './context';
import { EventBus } from './events';
import { homeserverModule } from './homeserver';
import { Scheduler } from './jobs';
import { batched } from './lib/batch';
import { frameworkErrors, installErrorHandling } from './lib/errors';
import { refuseNulCharacters } from './lib/input';
import { installRequestIdHeader, loggerOptions, requestIdOptions } from './logging';
import { aboutModule } from './modules/about/routes';
import { accountsModule } from './modules/accounts/routes';
import { sessionGenerationsOf } from './modules/accounts/service';
import { adminModule } from './modules/admin/routes';
import { arenaModule } from './modules/arena/routes';
import { installAuthGuard, withSessionCheck } from './modules/auth';
import { chatModule } from './modules/chat/routes';
import { devModule } from './modules/dev/routes';
import { discordModule } from './modules/discord/routes';
import { dropsModule } from './modules/drops/routes';
import { friendsModule } from './modules/friends/routes';
import { gameserversModule } from './modules/gameservers/routes';
import { healthModule } from './modules/health/routes';
import { insightsModule } from './modules/insights/routes';
import { mailModule } from './modules/mail/routes';
import { createMailer } from './modules/mail/service';
import { matchesModule } from './modules/matches/routes';
import { installMetrics } from './modules/metrics/routes';
import { mobileModule } from './modules/mobile/routes';
import { moderationModule } from './modules/moderation/routes';
import { presenceModule } from './modules/presence/routes';
import { privacyModule } from './modules/privacy/routes';
import { queueModule } from './modules/queue/routes';
import { queueAlertsModule } from './modules/queue-alerts/routes';
import { rankingModule } from './modules/ranking/routes';
import { reportsModule } from './modules/reports/routes';
import { steamModule } from './modules/steam/routes';
import { createVoiceServer, voiceModule } from './modules/voice';
import { whatsAppModule } from './modules/whatsapp/routes';
import { createRealtime, useRedisAdapter } from './realtime/hub';
import { defaultWebDist, installCompression, installSecurityHeaders, serveWeb } from './web';

export interface BuildOptions {
  /** Logger setting for Fastify; tests pass false, or `{ stream }` to capture the lines. */
  logger?: boolean | object;
  webDist?: string;
  /** Sees every route as it registers (tests enumerate the whole API with it). */
  onRoute?: (route: RouteOptions) => void;
}

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

export async function buildApp(
  base: Omit<AppContext, 'realtime' | 'bus' | 'jobs' | 'mailer' | 'voice' | 'log' | 'state'> &
    Partial<Pick<AppContext, 'mailer' | 'voice'>>,
  options: BuildOptions = {},
): Promise<AppInstance> {
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
  await installSecurityHeaders(app, base.config);
  await installCompression(app);
  if (options.onRoute) app.addHook('onRoute', options.onRoute);

  // A token verifies only while its session generation is the account's current one: a password
  // change or reset ends every session issued before, on HTTP and at socket sign-in. The lookups
  // of one loop turn share a query (a reconnect storm signs thousands in at once); each is still
  // read after it was asked for.
  const tokens = withSessionCheck(
    base.tokens,
    batched((userIds) => sessionGenerationsOf(base.db, userIds), null as number | null),
  );
  const realtime = createRealtime(app.server, {
    events: clientEvents,
    tokens,
    log: app.log,
    trustProxy: trustProxyOption(base.config.TRUST_PROXY),
    drainNoticeMs: base.config.DRAIN_NOTICE_MS,
  });
  const ctx: AppContext = {
    ...base,
    tokens,
    realtime,
    log: app.log,
    state: createModuleState(),
    bus: new EventBus(app.log),
    // Handlers get this context; `ctx` is set before any job can fire.
    jobs: new Scheduler(base.db, base.clock, app.log, base.config.JOBS_POLL_MS, () => ctx),
    mailer: base.mailer ?? createMailer(base.config, base.db, app.log, () => base.clock.now()),
    voice: base.voice ?? createVoiceServer(base.config, base.db, app.log, () => base.clock.now()),
  };
  app.decorate('ctx', ctx);
  ctx.database.logTo(app.log);
  // Before the modules register, so its hook times every route.
  installMetrics(app, ctx);
  if (ctx.config.REDIS_URL) {
    const closeRedis = await useRedisAdapter(realtime, ctx.config.REDIS_URL, ctx.config.REDIS_PREFIX);
    app.addHook('onClose', closeRedis);
  }
  app.addHook('preClose', async () => {
    await realtime.close();
  });

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'openpug API', version: ctx.version },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  installAuthGuard(app, ctx.tokens);
  // Feature modules: each is `(ctx) => plugin` registering its routes, socket handlers and bus
  // handlers. Add new modules to this list.
  const modules = [
    healthModule,
    backupModule,
    mailModule,
    accountsModule,
    steamModule,
    voiceModule,
    devModule,
    presenceModule,
    friendsModule,
    queueModule,
    matchesModule,
    gameserversModule,
    homeserverModule,
    chatModule,
    whatsAppModule,
    discordModule,
    mobileModule,
    rankingModule,
    dropsModule,
    adminModule,
    moderationModule,
    reportsModule,
    privacyModule,
    arenaModule,
    insightsModule,
    queueAlertsModule,
    aboutModule,
  ];
  for (const module of modules) await app.register(module(ctx));
  // The job scheduler starts once every module has registered its job kinds and run its own
  // start-up (a restart re-arms the pending jobs), and stops on close. A plugin after the modules,
  // because Fastify runs a plugin's onReady hooks after those of the plugins registered before it.
  await app.register(async (scheduler) => {
    scheduler.addHook('onReady', () => ctx.jobs.start());
    scheduler.addHook('preClose', () => ctx.jobs.stop());
  });

  await serveWeb(app, options.webDist ?? ctx.config.WEB_DIST ?? defaultWebDist());
  return app as unknown as AppInstance;
}
