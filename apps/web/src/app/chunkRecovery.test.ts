import { describe, expect, it } from 'vitest';
import { loadChunk, RELOADED_FOR_KEY, reloadIfNewerBuild } from './chunkRecovery';

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
  };
}

describe('a chunk that fails after a new deployment', () => {
  it('reloads once into the newer build, and not again for the same version', async () => {
    const storage = memoryStorage();
    let reloads = 0;
    const deps = {
      storage,
      runningVersion: '0.1.0.100',
      fetchVersion: async () => '0.1.0.200',
      reload: () => void reloads++,
    };
    expect(await reloadIfNewerBuild(deps)).toBe(true);
    expect(reloads).toBe(1);
    expect(storage.getItem(RELOADED_FOR_KEY)).toBe('0.1.0.200');
    // The same deployed version again (the chunk is really gone): no loop.
    expect(await reloadIfNewerBuild(deps)).toBe(false);
    expect(reloads).toBe(1);
  });

  it('does not reload for the same or an older build, or when the version cannot be read', async () => {
    let reloads = 0;
    const base = { storage: memoryStorage(), runningVersion: '0.1.0.100', reload: () => void reloads++ };
    expect(await reloadIfNewerBuild({ ...base, fetchVersion: async () => '0.1.0.100' })).toBe(false);
    expect(await reloadIfNewerBuild({ ...base, fetchVersion: async () => '0.1.0.50' })).toBe(false);
    expect(
      await reloadIfNewerBuild({
        ...base,
        fetchVersion: async () => {
          throw new Error('offline');
        },
      }),
    ).toBe(false);
    expect(reloads).toBe(0);
  });

  it('loadChunk passes a loaded chunk through and rethrows when no newer build explains the failure', async () => {
    const deps = {
      storage: memoryStorage(),
      runningVersion: '0.1.0.100',
      fetchVersion: async () => '0.1.0.100',
      reload: () => {},
    };
    expect(await loadChunk(async () => 'screen', deps)).toBe('screen');
    await expect(
      loadChunk(async () => {
        throw new TypeError('Failed to fetch dynamically imported module');
      }, deps),
    ).rejects.toThrow('Failed to fetch dynamically imported module');
  });
});
