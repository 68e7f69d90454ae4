/**
 * buildApp(base) → the Fastify instance with every module registered. main.ts and the tests build
 * it the same way; only the base context differs. This file lists the modules, in order; what
 * they stand on (the server, the context, the API surface) is made by platform.ts.
 */
import { backupModule } from './backup/routes';
import { homeserverModule } from './homeserver';
import { aboutModule } from './modules/about/routes';
import { accountsModule } from './modules/accounts/routes';
import { adminModule } from './modules/admin/routes';
import { arenaModule } from './modules/arena/routes';
import { chatModule } from './modules/chat/routes';
import { devModule } from './modules/dev/routes';
import { discordModule } from './modules/discord/routes';
import { dropsModule } from './modules/drops/routes';
import { friendsModule } from './modules/friends/routes';
import { gameserversModule } from './modules/gameservers/routes';
import { healthModule } from './modules/health/routes';
import { insightsModule } from './modules/insights/routes';
import { mailModule } from './modules/mail/routes';
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
import { voiceModule } from './modules/voice';
import { whatsAppModule } from './modules/whatsapp/routes';
import {
  type AppBase,
  type AppInstance,
  type BuildOptions,
  createPlatform,
  installApiSurface,
} from './platform';
import { defaultWebDist, serveWeb } from './web';

export type { AppInstance, BuildOptions } from './platform';

export async function buildApp(base: AppBase, options: BuildOptions = {}): Promise<AppInstance> {
  const { app, ctx } = await createPlatform(base, options);
  // The metrics module first: its hook times every route registered after it.
  installMetrics(app, ctx);
  await installApiSurface(app, ctx);
  // Feature modules: each is `(ctx) => plugin` registering its routes, socket handlers, bus
  // handlers, job kinds and start/stop hooks. Add new modules to this list.
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
