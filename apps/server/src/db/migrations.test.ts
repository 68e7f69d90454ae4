import { getTableColumns, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openTestDatabase, usingPostgres } from '../../test/helpers';
import { matches, matchPlayers } from '../modules/matches/schema';
import type { Db } from './client';
import * as schema from './schema';

// Runs on PGlite, and on PostgreSQL in the server-pg project (TEST_DATABASE_URL).
describe(`migrations on ${usingPostgres() ? 'PostgreSQL' : 'PGlite'}`, () => {
  it('create every table and column of the schema, and re-running them is a no-op', async () => {
    const database = await openTestDatabase();
    try {
      await database.migrate(); // second run: nothing to do, no error
      const rows = await database.db.execute<{ table_name: string; column_name: string }>(
        sql`SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'`,
      );
      const have = new Set(
        (rows as unknown as { rows: { table_name: string; column_name: string }[] }).rows.map(
          (r) => `${r.table_name}.${r.column_name}`,
        ),
      );
      for (const table of Object.values(schema)) {
        if (!table || typeof table !== 'object' || !('getSQL' in table)) continue;
        const name = (table as unknown as { [k: symbol]: string })[Symbol.for('drizzle:Name')];
        for (const col of Object.values(getTableColumns(table as never)) as { name: string }[]) {
          expect(have.has(`${name}.${col.name}`), `${name}.${col.name}`).toBe(true);
        }
      }
    } finally {
      await database.dispose();
    }
  });

  it("check a roster row's match at the commit: before its match is fine, without one fails", async () => {
    // The queue writes a burst's matches and rosters in one round trip, in no set order (0028).
    const database = await openTestDatabase();
    const roster = (matchId: string) => ({ matchId, userId: 'u1', name: 'one', elo: 150 });
    const match = (id: string) => ({
      id,
      status: 'playerveto' as const,
      createdAt: 1,
      teamOneName: 'Team a',
      teamTwoName: 'Team b',
      pickOrder: 'ABBA',
      mapPool: [],
      bans: [],
    });
    try {
      await database.db.transaction(async (raw) => {
        const tx = raw as unknown as Db;
        await tx.insert(matchPlayers).values(roster('m1'));
        await tx.insert(matches).values(match('m1'));
      });
      expect(await database.db.select({ matchId: matchPlayers.matchId }).from(matchPlayers)).toEqual([
        { matchId: 'm1' },
      ]);
      const failed = await database.db
        .transaction(async (raw) => {
          await (raw as unknown as Db).insert(matchPlayers).values(roster('nowhere'));
        })
        .then(
          () => null,
          (err: Error & { cause?: Error }) => err,
        );
      // node-postgres reports it as the commit's failure, with PostgreSQL's error as the cause.
      expect(`${failed?.message} ${failed?.cause?.message}`).toMatch(/foreign key/);
      expect(await database.db.select().from(matchPlayers)).toHaveLength(1);
    } finally {
      await database.dispose();
    }
  });
});
