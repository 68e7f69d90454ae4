/**
 * Entry point (launcher): reads the configuration, takes the data-directory lock (PGlite) and
 * starts the embedded database's process (db/engine.ts), or opens PostgreSQL; then loads the
 * server proper (serve.ts) while the engine boots — loading the server's modules and booting
 * PGlite each take about a second and run on different cores. If the embedded engine dies on its
 * own, the server exits 1: a supervisor (or the operator) starts both again.
 */

import path from 'node:path';
import { ConfigError, loadConfig } from './config';
import type { Database } from './db/client';
import { startEngine } from './db/engine';
import { type DataDirLock, DataDirLockedError, lockDataDir } from './db/lock';

async function main(): Promise<void> {
  const config = loadConfig();
  let lock: DataDirLock | undefined;
  let opening: Promise<Database>;
  if (config.DATABASE_URL) {
    const url = config.DATABASE_URL;
    opening = import('./db/client').then(({ openPostgres }) => openPostgres(url));
  } else {
    const held = lockDataDir(config.dataDir);
    lock = held;
    opening = startEngine({
      dir: path.join(config.dataDir, 'db'),
      onCrash: ({ code, signal }) => {
        console.error(
          `openpug: the embedded database process exited unexpectedly (code ${code}, signal ${signal}); stopping`,
        );
        held.release();
        process.exit(1);
      },
    }).then(
      (engine) => engine.database,
      (err) => {
        held.release();
        throw err;
      },
    );
    // Awaited by serve(); this keeps an early failure from counting as unhandled meanwhile.
    opening.catch(() => {});
  }
  const { serve } = await import('./serve');
  await serve(config, opening, lock);
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
