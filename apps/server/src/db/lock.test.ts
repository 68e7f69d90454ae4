import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from './lock';

describe('data directory lock', () => {
  it('refuses a second holder and frees the directory on release', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'openpug-lock-'));
    const lockFile = path.join(dir, 'openpug.lock');
    // Another live process (this test's parent) holds it:
    writeFileSync(lockFile, String(process.ppid));
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    expect(readFileSync(lockFile, 'utf8')).toBe(String(process.ppid));
  });

  it('takes over a lock left by a process that is gone', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'openpug-lock-'));
    const child = spawn(process.execPath, ['-e', '0']);
    const deadPid = child.pid!;
    await new Promise((r) => child.on('exit', r));
    writeFileSync(path.join(dir, 'openpug.lock'), String(deadPid));
    const lock = lockDataDir(dir);
    expect(readFileSync(path.join(dir, 'openpug.lock'), 'utf8')).toBe(String(process.pid));
    lock.release();
    expect(existsSync(path.join(dir, 'openpug.lock'))).toBe(false);
  });
});
