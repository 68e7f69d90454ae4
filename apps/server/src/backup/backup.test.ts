/**
 * Backup and restore in process, on the engine of the project (PGlite; PostgreSQL in server-pg):
 * a community backed up and restored into an empty database has the same rows in every table,
 * sequences continue after the restored rows, a database with data and a cut backup are refused,
 * and the running server's loopback endpoint answers only its token.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMMUNITY_PASSWORD,
  type Community,
  seedCommunity,
  tableContents,
} from '../../test/fixtures/community';
import { createTestApp, openTestDatabase, type TestApp } from '../../test/helpers';
import { queueEntries } from '../db/schema';
import { countRows, latestSchema, RestoreError, restoreBackup, writeBackup } from './index';
import { BACKUP_ENDPOINT_FILE, BACKUP_PATH, BACKUP_TOKEN_HEADER, type BackupEndpoint } from './routes';

async function backupLines(database: Parameters<typeof writeBackup>[0]): Promise<string[]> {
  let text = '';
  await writeBackup(database, (chunk) => {
    text += chunk;
  });
  return text.trimEnd().split('\n');
}

describe('backup and restore', () => {
  let source: TestApp;
  let community: Community;
  let lines: string[];
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'openpug-backup-test-'));

  beforeAll(async () => {
    source = await createTestApp({ env: { DATA_DIR: dataDir } });
    community = await seedCommunity(source.app);
    lines = await backupLines(source.database);
  });
  afterAll(async () => {
    await source.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes a header with the schema version, a line per table and row, and the counts at the end', async () => {
    const header = JSON.parse(lines[0]);
    expect(header).toMatchObject({ '@': 'openpug-backup', format: 1, schema: latestSchema() });
    const end = JSON.parse(lines[lines.length - 1]);
    expect(end['@']).toBe('end');
    expect(end.counts).toEqual(await countRows(source.database.db));
    expect(end.counts.users).toBe(4);
    expect(end.counts.mx_media).toBe(1);
    // Parents come before the tables referencing them.
    const order = lines.filter((l) => l.startsWith('{"@":"table"')).map((l) => JSON.parse(l).name);
    expect(order.indexOf('users')).toBeLessThan(order.indexOf('friend_requests'));
    expect(order.indexOf('matches')).toBeLessThan(order.indexOf('match_players'));
  });

  it('restores into an empty database: the same rows in every table, and sequences continue', async () => {
    const target = await openTestDatabase();
    try {
      const summary = await restoreBackup(target, lines);
      expect(summary.counts.users).toBe(4);
      expect(await tableContents(target.db)).toEqual(await tableContents(source.database.db));
      const [{ max }] = (
        (await target.db.execute(sql`SELECT max(seq)::int AS max FROM queue_entries`)) as unknown as {
          rows: { max: number }[];
        }
      ).rows;
      const [added] = await target.db
        .insert(queueEntries)
        .values({ userId: community.players[0].id, joinedAt: 1 })
        .returning({ seq: queueEntries.seq });
      expect(added.seq).toBeGreaterThan(max);

      // A restored member logs in with their password and sees their friend.
      const app = await createTestApp({ database: target });
      try {
        const login = await app.app.inject({
          method: 'POST',
          url: '/api/login',
          payload: { email: 'member1@community.test', password: COMMUNITY_PASSWORD },
        });
        expect(login.statusCode).toBe(200);
        const friends = await app.app.inject({
          method: 'GET',
          url: '/api/friends',
          headers: { authorization: `Bearer ${login.json().token}` },
        });
        expect(JSON.stringify(friends.json())).toContain(community.players[0].id);
      } finally {
        await app.app.close();
      }
    } finally {
      await target.dispose();
    }
  });

  it('refuses a database that holds data, and changes nothing', async () => {
    const before = await tableContents(source.database.db);
    await expect(restoreBackup(source.database, lines)).rejects.toThrow(/not empty.*users/);
    expect(await tableContents(source.database.db)).toEqual(before);
  });

  it('refuses a cut backup and leaves the database empty', async () => {
    const target = await openTestDatabase();
    try {
      await expect(restoreBackup(target, lines.slice(0, -1))).rejects.toThrow(RestoreError);
      expect((await countRows(target.db)).users).toBe(0);
      await expect(restoreBackup(target, ['{"not":"a backup"}'])).rejects.toThrow(/not an openpug backup/);
      const future = JSON.stringify({ ...JSON.parse(lines[0]), schema: '9999_future' });
      await expect(restoreBackup(target, [future, ...lines.slice(1)])).rejects.toThrow(
        /newer than this openpug/,
      );
    } finally {
      await target.dispose();
    }
  });

  it.skipIf(process.env.TEST_DB === 'postgres')(
    'the running PGlite server streams a backup over loopback to its token only',
    async () => {
      await source.listen();
      const endpoint = JSON.parse(
        readFileSync(path.join(dataDir, BACKUP_ENDPOINT_FILE), 'utf8'),
      ) as BackupEndpoint;
      expect(endpoint).toMatchObject({ pid: process.pid, host: '127.0.0.1' });
      const url = `${source.url}${BACKUP_PATH}`;
      expect((await fetch(url)).status).toBe(404);
      expect((await fetch(url, { headers: { [BACKUP_TOKEN_HEADER]: 'wrong' } })).status).toBe(404);
      const proxied = await fetch(url, {
        headers: { [BACKUP_TOKEN_HEADER]: endpoint.token, 'x-forwarded-for': '203.0.113.9' },
      });
      expect(proxied.status).toBe(404);
      const res = await fetch(url, { headers: { [BACKUP_TOKEN_HEADER]: endpoint.token } });
      expect(res.status).toBe(200);
      const streamed = (await res.text()).trimEnd().split('\n');
      expect(JSON.parse(streamed[streamed.length - 1]).counts).toEqual(
        JSON.parse(lines[lines.length - 1]).counts,
      );
      const target = await openTestDatabase();
      try {
        await restoreBackup(target, streamed);
        expect(await tableContents(target.db)).toEqual(await tableContents(source.database.db));
      } finally {
        await target.dispose();
      }
    },
  );
});
