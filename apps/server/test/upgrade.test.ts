import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, latestSchema, restoreBackup, schemaVersion } from '../src/backup/index';
import { openPglite, openPostgres } from '../src/db/client';
import { COMMUNITY_PASSWORD } from './fixtures/community';
import { createTestApp, type TestApp, type TestDatabase, usingPostgres } from './helpers';
import { createScratchDatabase } from './scratch-database';

const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/release-0009.jsonl');

/** An empty database that was never migrated. */
async function blankDatabase(): Promise<TestDatabase> {
  if (!usingPostgres()) {
    const database = openPglite();
    return { ...database, dispose: () => database.close() };
  }
  const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL ?? '', 'openpug_up');
  const database = openPostgres(scratch.url);
  return {
    ...database,
    async dispose() {
      await database.close();
      await scratch.drop();
    },
  };
}

describe(`upgrade from the previous release on ${usingPostgres() ? 'PostgreSQL' : 'PGlite'}`, () => {
  let database: TestDatabase;
  let before: Record<string, number>;
  let after: Record<string, number>;
  let harness: TestApp;
  const lines = readFileSync(fixture, 'utf8').trimEnd().split('\n');

  beforeAll(async () => {
    database = await blankDatabase();
    await restoreBackup(database, lines, {
      onLoaded: async (summary) => {
        before = summary.counts;
        expect(await schemaVersion(database.db)).toBe('0009_rate_limit_windows');
      },
    });
    after = await countRows(database.db);
    harness = await createTestApp({ database });
  });
  afterAll(async () => {
    await harness?.app.close();
    await database?.dispose();
  });

  it('the fixture is the previous release with rows in every table', () => {
    expect(JSON.parse(lines[0]).schema).toBe('0009_rate_limit_windows');
    const empty = Object.entries(before).filter(([, n]) => n === 0);
    expect(empty).toEqual([]);
    expect(Object.keys(before).length).toBeGreaterThanOrEqual(38);
  });

  it('migrates to the current schema and keeps every table and every row', async () => {
    expect(await schemaVersion(database.db)).toBe(latestSchema());
    for (const [table, n] of Object.entries(before)) {
      expect(after[table], `table ${table} after the migrations`).toBe(n);
    }
    // 0010: an admin of the old release keeps the role as decided.
    const admins = (
      (await database.db.execute(
        sql`SELECT email, role_decided FROM users WHERE role = 'ADMIN'`,
      )) as unknown as {
        rows: { email: string; role_decided: boolean }[];
      }
    ).rows;
    expect(admins).toEqual([{ email: 'member0@community.test', role_decided: true }]);
  });

  it('reads through the API: login, profile, leaderboard, a match', async () => {
    const app = harness.app;
    const login = await app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'member3@community.test', password: COMMUNITY_PASSWORD },
    });
    expect(login.statusCode, login.body).toBe(200);
    const { token, user } = login.json();
    expect(user.email).toBe('member3@community.test');
    const auth = { authorization: `Bearer ${token}` };
    const profile = await app.inject({ method: 'GET', url: '/api/profile', headers: auth });
    expect(profile.statusCode).toBe(200);
    expect(profile.json().email).toBe('member3@community.test');
    const ranking = await app.inject({ method: 'GET', url: '/api/users/ranking', headers: auth });
    expect(ranking.statusCode, ranking.body).toBe(200);
    expect(ranking.body).toContain('member3');
    const matchId = (
      (await database.db.execute(sql`SELECT id FROM matches LIMIT 1`)) as unknown as {
        rows: { id: string }[];
      }
    ).rows[0].id;
    const match = await app.inject({ method: 'GET', url: `/api/match/${matchId}`, headers: auth });
    expect(match.statusCode, match.body).toBe(200);
    expect(match.body).toContain('member0');
  });
});
