/**
 * An empty PostgreSQL database of its own on the server `adminUrl` points at, for a test file or
 * a benchmark: created under a random name, dropped (connections and all) by `drop()`. Kept apart
 * from helpers.ts, which imports Vitest, so the benches can use it too.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function createScratchDatabase(
  adminUrl: string,
  prefix: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
