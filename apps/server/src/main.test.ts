/**
 * The entry point refuses an unsafe production configuration: one `openpug: …` line per problem on
 * stderr, no stack trace, exit status 1, and nothing started. With the embedded default it runs the
 * database in its own process (db/engine.ts): a SIGTERM stops both and frees the data directory;
 * the engine dying on its own stops the server with exit status 1.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAlive } from './db/lock';

it('prints every refused production setting on its own line and exits 1', async () => {
  const env: Record<string, string | undefined> = { ...process.env };
  // Only what this test sets: none of the runner's own settings may make the configuration valid.
  for (const key of Object.keys(env))
    if (/^[A-Z][A-Z0-9_]*$/.test(key) && key !== 'PATH' && key !== 'HOME') delete env[key];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: {
      ...env,
      NODE_ENV: 'production',
      DEV_TOOLS: 'on',
      PUBLIC_URL: 'http://pug.example',
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'openpug-main-')),
    },
  });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.on('data', (d) => (stdout += d));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  expect(code).toBe(1);
  expect(stdout).toBe('');
  const lines = stderr.trim().split('\n');
  expect(lines.map((l) => l.split(' ')[1])).toEqual([
    'DEV_TOOLS',
    'JWT_SECRET',
    'PUBLIC_URL',
    'SMTP_URL',
    'GAME_SERVER_PROVIDER',
    'TEAMSPEAK_HOST',
  ]);
  for (const line of lines) expect(line).toMatch(/^openpug: /);
  expect(stderr).not.toMatch(/\bat .*\.ts:\d+/);
}, 30_000);

describe('the embedded database process', () => {
  const startServer = async (dataDir: string) => {
    // Below the ephemeral range (32768–60999), where outgoing connections take their ports.
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const env: Record<string, string | undefined> = { ...process.env };
    delete env.DATABASE_URL;
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: path.resolve(import.meta.dirname, '..'),
      env: {
        ...env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: dataDir,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
    for (const until = Date.now() + 120_000; ; ) {
      const health = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (r) => (r.status === 200 ? (r.json() as Promise<{ database: unknown }>) : null),
        () => null,
      );
      if (health) {
        expect(health.database).toEqual({ kind: 'pglite', ok: true });
        break;
      }
      if (Date.now() > until || child.exitCode !== null) throw new Error(`server did not start: ${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const enginePid = Number(readFileSync(path.join(dataDir, 'engine.lock'), 'utf8'));
    expect(enginePid).not.toBe(child.pid);
    expect(isAlive(enginePid)).toBe(true);
    return { child, exit, enginePid, stderr: () => stderr };
  };

  it('SIGTERM stops the server and its engine and frees the data directory', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'openpug-main-'));
    const server = await startServer(dataDir);
    server.child.kill('SIGTERM');
    expect(await server.exit).toBe(0);
    expect(isAlive(server.enginePid)).toBe(false);
    expect(existsSync(path.join(dataDir, 'openpug.lock'))).toBe(false);
    expect(existsSync(path.join(dataDir, 'engine.lock'))).toBe(false);
  }, 240_000);

  it('exits 1 when its engine dies, and starts again on the same directory', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'openpug-main-'));
    const server = await startServer(dataDir);
    process.kill(server.enginePid, 'SIGKILL');
    expect(await server.exit).toBe(1);
    expect(server.stderr()).toMatch(
      /openpug: the embedded database process exited unexpectedly \(code null, signal SIGKILL\)/,
    );
    expect(existsSync(path.join(dataDir, 'openpug.lock'))).toBe(false);
    const again = await startServer(dataDir);
    again.child.kill('SIGTERM');
    expect(await again.exit).toBe(0);
  }, 240_000);
});
