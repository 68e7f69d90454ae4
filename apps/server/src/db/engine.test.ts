/**
 * The embedded database's process (db/engine.ts, db/engine-child.ts): it serves the `pg` driver,
 * keeps its data across restarts, answers statements sent together each with its own result, stops
 * when asked or when its server is gone, releases its lock, and an unasked exit is reported.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { sentTogether } from './client';
import { startEngine } from './engine';
import { isAlive } from './lock';
import { prepareRepeatedStatements } from './prepared';

const rowsOf = async (
  db: { execute: (q: ReturnType<typeof sql>) => Promise<unknown> },
  q: ReturnType<typeof sql>,
) => ((await db.execute(q)) as { rows: Record<string, unknown>[] }).rows;

describe('embedded database process', () => {
  it('serves migrations and queries, keeps its data, and stops on close', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'openpug-engine-'));
    const dir = path.join(dataDir, 'db');
    const first = await startEngine({ dir });
    expect(first.firstBoot).toBe(true);
    expect(first.pid).not.toBe(process.pid);
    expect(readFileSync(path.join(dataDir, 'engine.lock'), 'utf8')).toBe(String(first.pid));
    await first.database.migrate();
    await first.database.db.execute(sql`CREATE TABLE kept (n int)`);
    await first.database.db.execute(sql`INSERT INTO kept VALUES (42)`);
    // A failed statement inside a transaction rolls back and leaves the session usable.
    await expect(
      first.database.db.transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO kept VALUES (1)`);
        await tx.execute(sql`SELECT * FROM missing_table`);
      }),
    ).rejects.toThrow();
    expect(await first.database.ping()).toBe(true);

    // Many connections, one session: requests never interleave, and an open transaction runs alone.
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => rowsOf(first.database.db, sql`SELECT ${i}::int AS n`)),
    );
    expect(answers.map((r) => r[0].n)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    let outside: Promise<Record<string, unknown>[]> | undefined;
    await first.database.db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO kept VALUES (7)`);
      outside = rowsOf(first.database.db, sql`SELECT count(*)::int AS c FROM kept`);
      await new Promise((r) => setTimeout(r, 300));
      await tx.execute(sql`DELETE FROM kept WHERE n = 7`);
    });
    expect(await outside).toEqual([{ c: 1 }]);
    // Statements sent together on one connection (pipeline mode) each get their own answer.
    const together = await first.database.db.transaction((tx) =>
      sentTogether(
        rowsOf(tx, sql`SELECT n FROM kept WHERE n = 42`),
        rowsOf(tx, sql`SELECT 'b'::text AS v`),
        rowsOf(tx, sql`SELECT generate_series(1, 3) AS i`),
      ),
    );
    expect(together).toEqual([[{ n: 42 }], [{ v: 'b' }], [{ i: 1 }, { i: 2 }, { i: 3 }]]);

    // Named statements (db/prepared.ts): two connections name the same text in the one session
    // without a clash, and a connection's statements go when it closes.
    const named = async () => {
      const client = new pg.Client({ host: first.socketDir, user: 'postgres', database: 'postgres' });
      prepareRepeatedStatements(client);
      await client.connect();
      return client;
    };
    const [a, b] = [await named(), await named()];
    const prepared = async () =>
      (await b.query('SELECT statement FROM pg_prepared_statements')).rows.filter(
        (r) => r.statement === 'SELECT $1::int * 2 AS n',
      ).length;
    expect((await a.query('SELECT $1::int * 2 AS n', [1])).rows).toEqual([{ n: 2 }]);
    expect((await b.query('SELECT $1::int * 2 AS n', [2])).rows).toEqual([{ n: 4 }]);
    expect((await a.query('SELECT $1::int * 2 AS n', [3])).rows).toEqual([{ n: 6 }]);
    expect(await prepared()).toBe(2);
    await a.end();
    await vi.waitFor(async () => expect(await prepared()).toBe(1), { timeout: 5_000, interval: 50 });
    await b.end();
    await first.database.close();
    expect(isAlive(first.pid)).toBe(false);
    expect(existsSync(path.join(dataDir, 'engine.lock'))).toBe(false);

    const second = await startEngine({ dir });
    expect(second.firstBoot).toBe(false);
    expect(await rowsOf(second.database.db, sql`SELECT n FROM kept`)).toEqual([{ n: 42 }]);
    await second.database.close();
  }, 120_000);

  it('reports an exit it did not ask for', async () => {
    const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'openpug-engine-')), 'db');
    let crashed: (d: { code: number | null; signal: string | null }) => void = () => {};
    const crash = new Promise<{ code: number | null; signal: string | null }>((r) => (crashed = r));
    const engine = await startEngine({ dir, onCrash: (d) => crashed(d) });
    process.kill(engine.pid, 'SIGKILL');
    expect(await crash).toEqual({ code: null, signal: 'SIGKILL' });
    expect(await engine.database.ping()).toBe(false);
    await engine.database.close();
  }, 120_000);

  it('closes PGlite and releases its lock when its server is killed', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'openpug-engine-'));
    const parent = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        path.resolve(import.meta.dirname, '../../test/fixtures/engine-parent.ts'),
        path.join(dataDir, 'db'),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      parent.stdout.on('data', (d) => {
        out += d;
        if (out.includes('\n')) resolve(out.split('\n')[0]);
      });
      parent.once('exit', () => reject(new Error('the stand-in server exited')));
    });
    const { enginePid } = JSON.parse(line) as { enginePid: number };
    expect(isAlive(enginePid)).toBe(true);
    parent.kill('SIGKILL');
    await vi.waitFor(() => expect(isAlive(enginePid)).toBe(false), { timeout: 20_000, interval: 50 });
    expect(existsSync(path.join(dataDir, 'engine.lock'))).toBe(false);
    // And the directory opens again, intact.
    const again = await startEngine({ dir: path.join(dataDir, 'db') });
    expect(again.firstBoot).toBe(false);
    expect(await again.database.ping()).toBe(true);
    await again.database.close();
  }, 120_000);
});
