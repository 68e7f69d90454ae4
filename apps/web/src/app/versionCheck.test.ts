import { UPDATE_CHECK_INTERVAL_MINUTES } from '@openpug/shared';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  checkVersionWhenDue,
  isNewerVersion,
  isVersionCheckDue,
  NEXT_VERSION_CHECK_KEY,
} from './versionCheck';

const NOW = 1_700_000_000_000;
const INTERVAL_MS = UPDATE_CHECK_INTERVAL_MINUTES * 60_000;

describe('version comparison', () => {
  it('compares numerically by dot segments', () => {
    expect(isNewerVersion('0.1.0.1700000100', '0.1.0.1700000000')).toBe(true);
    expect(isNewerVersion('1.10.0', '1.9.9')).toBe(true);
    expect(isNewerVersion('0.2.0.1', '0.1.0.1700000000')).toBe(true);
    expect(isNewerVersion('0.1.0.1700000000', '0.1.0.1700000000')).toBe(false);
    expect(isNewerVersion('1.9.9', '1.10.0')).toBe(false);
    expect(isNewerVersion('1.2', '1.2.0')).toBe(false);
  });
});

describe('when the check is due', () => {
  it('is due without a stored time, at the stored time and after it', () => {
    expect(isVersionCheckDue(null, NOW)).toBe(true);
    expect(isVersionCheckDue(String(NOW), NOW)).toBe(true);
    expect(isVersionCheckDue(String(NOW - 1), NOW)).toBe(true);
    expect(isVersionCheckDue('garbage', NOW)).toBe(true);
  });

  it('is not due before the stored time', () => {
    expect(isVersionCheckDue(String(NOW + 1), NOW)).toBe(false);
  });
});

describe('checkVersionWhenDue', () => {
  beforeEach(() => localStorage.clear());

  const deps = (deployed: string | Error) => ({
    storage: localStorage,
    now: () => NOW,
    runningVersion: '0.1.0.1700000000',
    fetchVersion: vi.fn(async () => {
      if (deployed instanceof Error) throw deployed;
      return deployed;
    }),
    reload: vi.fn(),
  });

  it('reloads when the deployed version is newer and schedules the next check 120 minutes ahead', async () => {
    const d = deps('0.1.0.1700000500');
    expect(await checkVersionWhenDue(d)).toBe(true);
    expect(d.reload).toHaveBeenCalledOnce();
    expect(localStorage.getItem(NEXT_VERSION_CHECK_KEY)).toBe(String(NOW + INTERVAL_MS));
  });

  it('does not reload for the same or an older version', async () => {
    for (const deployed of ['0.1.0.1700000000', '0.0.9.1800000000']) {
      localStorage.clear();
      const d = deps(deployed);
      await checkVersionWhenDue(d);
      expect(d.reload).not.toHaveBeenCalled();
      expect(localStorage.getItem(NEXT_VERSION_CHECK_KEY)).toBe(String(NOW + INTERVAL_MS));
    }
  });

  it('does nothing before the next check time', async () => {
    localStorage.setItem(NEXT_VERSION_CHECK_KEY, String(NOW + 60_000));
    const d = deps('9.9.9');
    expect(await checkVersionWhenDue(d)).toBe(false);
    expect(d.fetchVersion).not.toHaveBeenCalled();
    expect(d.reload).not.toHaveBeenCalled();
  });

  it('survives an unreachable version file and still waits 120 minutes', async () => {
    const d = deps(new Error('offline'));
    expect(await checkVersionWhenDue(d)).toBe(true);
    expect(d.reload).not.toHaveBeenCalled();
    expect(localStorage.getItem(NEXT_VERSION_CHECK_KEY)).toBe(String(NOW + INTERVAL_MS));
  });
});
