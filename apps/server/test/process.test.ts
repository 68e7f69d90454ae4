/**
 * The real entry point as an operator runs it: starts on an empty data directory, serves health,
 * refuses a second start on the same directory, and shuts down cleanly on SIGTERM.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { usingPostgres } from './helpers';

const serverDir = path.resolve(import.meta.dirname, '..');

function start(env: Record<string, string>): {
  child: ChildProcess;
  output: () => string;
  exit: Promise<number | null>;
} {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env },
  });
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exit };
}

async function waitForHealth(port: number, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.status === 200) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not become healthy');
}

describe.skipIf(usingPostgres())('server process', () => {
  it('locks its data directory, refuses a second start and exits cleanly on SIGTERM', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'openpug-proc-'));
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const first = start({ DATA_DIR: dataDir, PORT: String(port) });
    await waitForHealth(port, 45_000);
    expect(existsSync(path.join(dataDir, 'openpug.lock'))).toBe(true);

    const second = start({ DATA_DIR: dataDir, PORT: String(port + 1) });
    expect(await second.exit).toBe(1);
    expect(second.output()).toContain('The data directory is in use by another openpug process');

    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);
    expect(existsSync(path.join(dataDir, 'openpug.lock'))).toBe(false);
  }, 90_000);
});
