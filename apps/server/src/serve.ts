/**
 * The server proper, loaded by the launcher (main.ts) once the configuration is valid and the
 * database is on its way: migrates, builds the app and listens. SIGTERM/SIGINT close sockets,
 * then the HTTP server, then the database (the embedded engine's process exits), then release
 * the lock.
 */
import { buildApp } from './app';
import type { Config } from './config';
import { systemClock } from './context';
import type { Database } from './db/client';
import type { DataDirLock } from './db/lock';
import { createTokens, loadJwtSecret } from './modules/auth';
import { defaultWebDist, readWebVersion } from './web';

export async function serve(config: Config, opening: Promise<Database>, lock?: DataDirLock): Promise<void> {
  const database = await opening;
  await database.migrate();

  const webDist = config.WEB_DIST ?? defaultWebDist();
  const app = await buildApp({
    config,
    database,
    db: database.db,
    tokens: createTokens(loadJwtSecret(config.dataDir, config.JWT_SECRET)),
    clock: systemClock,
    version: readWebVersion(webDist, '0.0.0'),
  });
  // Once, from the stop's end or from its time limit below, whichever comes first.
  let closing: Promise<void> | undefined;
  const closeDatabase = () => {
    closing ??= database.close().finally(() => lock?.release());
    return closing;
  };
  app.addHook('onClose', closeDatabase);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    // A stop that overruns its 10 s (19,000 sockets on a busy machine, bench/RESULTS.md session
    // 13) still closes the database, for at most 5 s more, rather than cutting the embedded
    // engine off with its data directory open.
    const force = setTimeout(() => {
      app.log.error('shutdown took over 10 s: closing the database and exiting');
      setTimeout(() => process.exit(1), 5_000).unref();
      closeDatabase().finally(() => process.exit(1));
    }, 10_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (err) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info(`openpug is serving on ${config.PUBLIC_URL} (database: ${database.kind})`);
}
