/**
 * PGlite does not lock its directory, and two processes on one directory silently lose data.
 * The server therefore holds `$DATA_DIR/openpug.lock` (with its pid) while it runs; a second
 * start on the same directory refuses. A lock left behind by a killed process is taken over.
 * The embedded database's process (db/engine-child.ts) holds `$DATA_DIR/engine.lock` the same
 * way while PGlite is open: after a server is killed, its engine may still be closing, and the
 * next one waits for it.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {
  constructor(
    readonly lockPath: string,
    readonly pid: number,
  ) {
    super(
      `The data directory is in use by another openpug process (pid ${pid}, lock ${lockPath}). ` +
        'Stop that process first, or give this one its own DATA_DIR. ' +
        'To run several instances on one database, use PostgreSQL (DATABASE_URL).',
    );
  }
}

/** Whether a process with this pid exists (signal 0; EPERM: it exists but is not ours). */
export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface DataDirLock {
  release(): void;
}

export const ENGINE_LOCK = 'engine.lock';

export function lockDataDir(dataDir: string, file = 'openpug.lock'): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, file);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return {
        release() {
          try {
            if (readFileSync(lockPath, 'utf8') === String(process.pid)) rmSync(lockPath);
          } catch {
            // already gone
          }
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
      if (isAlive(pid) && pid !== process.pid) throw new DataDirLockedError(lockPath, pid);
      rmSync(lockPath, { force: true }); // stale: its process is gone
    }
  }
  throw new Error(`could not take ${lockPath}`);
}
