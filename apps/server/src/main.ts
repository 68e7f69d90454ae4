/**
 * Entry point: reads the configuration, takes the data-directory lock (PGlite), opens and migrates
 * the database, builds the app and listens. SIGTERM/SIGINT close sockets, then the HTTP server,
 * then the database, then release the lock.
 */

import path from 'node:path';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { systemClock } from './context';
import { type Database, openPglite, openPostgres } from './db/client';
import { type DataDirLock, DataDirLockedError, lockDataDir } from './db/lock';
import { createTokens, loadJwtSecret } from './modules/auth';
import { defaultWebDist, readWebVersion } from './web';

async function main(): Promise<void> {
  const config = loadConfig();
  let lock: DataDirLock | undefined;
  let database: Database;
  if (config.DATABASE_URL) {
    database = openPostgres(config.DATABASE_URL);
  } else {
    lock = lockDataDir(config.dataDir);
    database = openPglite(path.join(config.dataDir, 'db'));
  }
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
  app.addHook('onClose', async () => {
    await database.close();
    lock?.release();
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
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

// Start-up failures go to stderr: the config, the lock or the database can fail before buildApp
// has made the pino logger. Everything after start-up logs through the app's logger.
main().catch((err) => {
  if (err instanceof ConfigError) {
    // One line per refused setting, all of them, and no stack trace: it is the operator's to fix.
    for (const problem of err.problems) console.error(`openpug: ${problem}`);
  } else if (err instanceof DataDirLockedError) {
    console.error(`openpug: ${err.message}`);
  } else {
    console.error('openpug failed to start:', err);
  }
  process.exit(1);
});
