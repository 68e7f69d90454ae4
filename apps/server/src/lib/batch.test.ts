/**
 * The lookup batcher (batch.ts): lookups of one loop turn (or made while a call runs) become one
 * call, each caller gets its own key's answer (or the default), a failure reaches every caller of
 * its batch, and a later turn makes a fresh call (no cache: nothing read before it was asked for).
 */
import { describe, expect, it } from 'vitest';
import { batched, batchedRows } from './batch';

function recorder(answer: (key: string) => number | undefined) {
  const calls: string[][] = [];
  const load = async (keys: string[]) => {
    calls.push(keys);
    const found = new Map<string, number>();
    for (const key of keys) {
      const v = answer(key);
      if (v !== undefined) found.set(key, v);
    }
    return found;
  };
  return { calls, load };
}

describe('batched', () => {
  it('answers the lookups of one turn with one call, each with its own value or the default', async () => {
    const { calls, load } = recorder((k) => (k === 'none' ? undefined : k.length));
    const get = batched(load, -1);
    const answers = await Promise.all([get('a'), get('bbb'), get('a'), get('none')]);
    expect(answers).toEqual([1, 3, 1, -1]);
    expect(calls).toEqual([['a', 'bbb', 'none']]);
  });

  it('calls again for a later turn: nothing is served from an earlier read', async () => {
    let value = 1;
    const { calls, load } = recorder(() => value);
    const get = batched(load, 0);
    expect(await get('x')).toBe(1);
    value = 2;
    expect(await get('x')).toBe(2);
    expect(calls).toEqual([['x'], ['x']]);
  });

  it('keeps the keys asked while a call runs for one call after it', async () => {
    const calls: string[][] = [];
    let release = () => {};
    const get = batched(async (keys: string[]) => {
      calls.push(keys);
      if (calls.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return new Map(keys.map((k) => [k, k.length]));
    }, 0);
    const first = get('a');
    await new Promise((resolve) => setImmediate(resolve)); // the first call is running
    const later = [get('bb'), get('ccc')];
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual([['a']]);
    release();
    expect(await Promise.all([first, ...later])).toEqual([1, 2, 3]);
    expect(calls).toEqual([['a'], ['bb', 'ccc']]);
  });

  it('splits a turn larger than maxBatch into several calls', async () => {
    const { calls, load } = recorder(() => 7);
    const get = batched(load, 0, { maxBatch: 2 });
    expect(await Promise.all(['a', 'b', 'c', 'd', 'e'].map(get))).toEqual([7, 7, 7, 7, 7]);
    expect(calls).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('rejects every caller of a batch whose call fails, thrown or rejected', async () => {
    const get = batched<string, number>(() => {
      throw new Error('database down');
    }, 0);
    const both = [get('a'), get('b')];
    for (const p of both) await expect(p).rejects.toThrow('database down');
    const rejecting = batched<string, number>(async () => Promise.reject(new Error('later')), 0);
    await expect(rejecting('a')).rejects.toThrow('later');
  });
});

describe('batchedRows', () => {
  it("answers each key of a turn's one call with its own rows, in the call's order, or none", async () => {
    const calls: string[][] = [];
    const rows = [
      { owner: 'a', n: 1 },
      { owner: 'b', n: 2 },
      { owner: 'a', n: 3 },
    ];
    const get = batchedRows(
      async (keys: string[]) => {
        calls.push(keys);
        return rows.filter((r) => keys.includes(r.owner));
      },
      (row) => row.owner,
    );
    expect(await Promise.all([get('a'), get('b'), get('c')])).toEqual([[rows[0], rows[2]], [rows[1]], []]);
    expect(calls).toEqual([['a', 'b', 'c']]);
  });
});
