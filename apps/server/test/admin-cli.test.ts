/**
 * The admin CLI as an operator runs it: `npm run admin -- …` from the repository root, with a
 * DATA_DIR and file names relative to the root (npm runs the script in apps/server; the paths
 * must still mean the root). Data → backup → empty database → restore → the same rows in every
 * table; a backup while the PGlite server runs (over loopback); and, with TEST_DATABASE_URL, a
 * restore into PostgreSQL and `move-to-postgres`, after which members log in on PostgreSQL.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restoreBackup } from '../src/backup/index';
import { type Database, openPglite, openPostgres } from '../src/db/client';
import { lockDataDir } from '../src/db/lock';
import { COMMUNITY_PASSWORD, type Community, seedCommunity, tableContents } from './fixtures/community';
import { createTestApp, openTestDatabase, usingPostgres } from './helpers';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const rel = (p: string) => path.relative(root, p);

function admin(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; out: string; err: string }> {
  const base = { ...process.env };
  for (const k of ['INIT_CWD', 'DATA_DIR', 'DATABASE_URL', 'JWT_SECRET']) delete base[k];
  return new Promise((resolve) => {
    execFile(
      'npm',
      ['run', '--silent', 'admin', '--', ...args],
      { cwd: root, env: { ...base, ...env }, timeout: 120_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out: stdout, err: stderr }),
    );
  });
}

const asTest = (database: Database) => ({ ...database, dispose: () => database.close() });

async function withPglite<T>(dir: string, fn: (database: Database) => Promise<T>): Promise<T> {
  const database = openPglite(path.join(dir, 'db'));
  try {
    return await fn(database);
  } finally {
    await database.close();
  }
}

async function login(database: Database, email: string) {
  const app = await createTestApp({ database: asTest(database) });
  try {
    const res = await app.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email, password: COMMUNITY_PASSWORD },
    });
    return { status: res.statusCode, body: res.json() };
  } finally {
    await app.app.close();
  }
}

// One run is enough: the CLI picks its engine from DATABASE_URL, not from the test project.
// Each case starts npm and tsx a few times: seconds each on a busy two-core CI machine.
describe.skipIf(usingPostgres())('admin CLI from the repository root', { timeout: 180_000 }, () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'openpug-admin-cli-'));
  const source = path.join(tmp, 'source');
  let community: Community;
  let contents: Record<string, string[]>;

  beforeAll(async () => {
    await withPglite(source, async (database) => {
      await database.migrate();
      const app = await createTestApp({ database: asTest(database), env: { DATA_DIR: source } });
      community = await seedCommunity(app.app);
      await app.app.close();
      contents = await tableContents(database.db);
    });
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('finds no database where it expects one, says so and creates nothing', async () => {
    const missing = path.join(tmp, 'missing');
    for (const args of [['list'], ['grant', 'a@b.test'], ['backup', rel(path.join(tmp, 'x.jsonl'))]]) {
      const r = await admin(args, { DATA_DIR: rel(missing) });
      expect(r.code, r.err).toBe(1);
      expect(r.err).toContain(`no database in ${path.join(missing, 'db')}`);
    }
    expect(existsSync(missing)).toBe(false);
    expect(existsSync(path.join(root, 'apps/server', rel(missing)))).toBe(false);
  });

  it('lists and grants on the right database (DATA_DIR relative to the root)', async () => {
    const list = await admin(['list'], { DATA_DIR: rel(source) });
    expect(list.code, list.err).toBe(0);
    expect(list.out).toContain('member0@community.test');
    const grant = await admin(['grant', 'member2@community.test'], { DATA_DIR: rel(source) });
    expect(grant.code, grant.err).toBe(0);
    await withPglite(source, async (database) => {
      contents = await tableContents(database.db);
    });
  });

  it('backs up with the server stopped and restores into an empty directory: the same rows', async () => {
    const file = path.join(tmp, 'stopped.jsonl');
    const backup = await admin(['backup', rel(file)], { DATA_DIR: rel(source) });
    expect(backup.code, backup.err).toBe(0);
    expect(backup.out).toContain('backup written');
    const target = path.join(tmp, 'restored');
    const restore = await admin(['restore', rel(file)], { DATA_DIR: rel(target) });
    expect(restore.code, restore.err).toBe(0);
    await withPglite(target, async (database) => {
      expect(await tableContents(database.db)).toEqual(contents);
    });
    const again = await admin(['restore', rel(file)], { DATA_DIR: rel(target) });
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/not empty/);
    const { status } = await withPglite(target, (database) => login(database, 'member1@community.test'));
    expect(status).toBe(200);
  });

  it('backs up while the PGlite server runs, by asking it over loopback', async () => {
    const lock = lockDataDir(source);
    const database = openPglite(path.join(source, 'db'));
    const app = await createTestApp({ database: asTest(database), env: { DATA_DIR: source } });
    const file = path.join(tmp, 'running.jsonl');
    try {
      await app.listen();
      const backup = await admin(['backup', rel(file)], { DATA_DIR: rel(source) });
      expect(backup.code, backup.err).toBe(0);
      expect(backup.out).toContain('by the running server');
      // grant needs the server stopped: refused, nothing changed
      const grant = await admin(['grant', 'member3@community.test'], { DATA_DIR: rel(source) });
      expect(grant.code).toBe(1);
      expect(grant.err).toContain('in use by another openpug process');
    } finally {
      await app.app.close();
      contents = await tableContents(database.db); // the start added the drop engine, season and its job
      await database.close();
      lock.release();
    }
    const target = await openTestDatabase();
    try {
      await restoreBackup(target, readFileSync(file, 'utf8').split('\n'));
      expect(await tableContents(target.db)).toEqual(contents);
    } finally {
      await target.dispose();
    }
  });

  describe.skipIf(!process.env.TEST_DATABASE_URL)('with PostgreSQL', () => {
    const adminUrl = process.env.TEST_DATABASE_URL ?? '';
    const created: string[] = [];
    async function scratch(): Promise<string> {
      const name = `openpug_cli_${Math.random().toString(16).slice(2, 10)}`;
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`CREATE DATABASE ${name}`);
      await c.end();
      created.push(name);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return url.toString();
    }
    afterAll(async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      for (const name of created) await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    });

    it('restores a PGlite backup into PostgreSQL and backs PostgreSQL up again: the same rows', async () => {
      const url = await scratch();
      const file = path.join(tmp, 'for-pg.jsonl');
      expect((await admin(['backup', rel(file)], { DATA_DIR: rel(source) })).code).toBe(0);
      const restore = await admin(['restore', rel(file)], { DATABASE_URL: url });
      expect(restore.code, restore.err).toBe(0);
      const database = openPostgres(url);
      try {
        expect(await tableContents(database.db)).toEqual(contents);
      } finally {
        await database.close();
      }
      const back = path.join(tmp, 'from-pg.jsonl');
      const backup = await admin(['backup', rel(back)], { DATABASE_URL: url });
      expect(backup.code, backup.err).toBe(0);
      const restore2 = await admin(['restore', rel(back)], { DATA_DIR: rel(path.join(tmp, 'from-pg')) });
      expect(restore2.code, restore2.err).toBe(0);
      await withPglite(path.join(tmp, 'from-pg'), async (d) =>
        expect(await tableContents(d.db)).toEqual(contents),
      );
    });

    it('move-to-postgres copies everything, chat included, and members log in on PostgreSQL', async () => {
      const url = await scratch();
      const move = await admin(['move-to-postgres', url], { DATA_DIR: rel(source) });
      expect(move.code, move.err).toBe(0);
      expect(move.out).toContain('every table');
      expect(move.out).toContain(`DATABASE_URL=${url}`);
      const database = openPostgres(url);
      try {
        expect(await tableContents(database.db)).toEqual(contents);
        const { status, body } = await login(database, 'member1@community.test');
        expect(status).toBe(200);
        expect(body.matrix?.accessToken).toBeTruthy(); // the chat password decrypts: chat login works
        const app = await createTestApp({ database: asTest(database) });
        try {
          const auth = { authorization: `Bearer ${body.token}` };
          const friends = await app.app.inject({ method: 'GET', url: '/api/friends', headers: auth });
          expect(JSON.stringify(friends.json())).toContain(community.players[0].id);
          const match = await app.app.inject({
            method: 'GET',
            url: `/api/match/${community.matchId}`,
            headers: auth,
          });
          expect(match.statusCode).toBe(200);
          const msgs = await app.app.inject({
            method: 'GET',
            url: `/_matrix/client/v3/rooms/${encodeURIComponent(community.matchRoomId)}/messages?dir=b&limit=50`,
            headers: { authorization: `Bearer ${body.matrix.accessToken}` },
          });
          expect(msgs.statusCode).toBe(200);
          expect(msgs.body).toContain('gg wp');
        } finally {
          await app.app.close();
        }
      } finally {
        await database.close();
      }
      const again = await admin(['move-to-postgres', url], { DATA_DIR: rel(source) });
      expect(again.code).toBe(1);
      expect(again.err).toMatch(/not empty/);
    });
  });
});
