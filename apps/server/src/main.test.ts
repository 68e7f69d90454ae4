/**
 * The entry point refuses an unsafe production configuration: one `openpug: …` line per problem on
 * stderr, no stack trace, exit status 1, and nothing started.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';

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
