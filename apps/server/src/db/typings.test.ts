/**
 * The database's dialect builds no per-parameter type hints (db/client.ts withoutParamTypings):
 * the statements drizzle sends are the same text and values as with them, and values of every
 * kind that had a hint (json, timestamp) go in and come back as before. Both engines.
 */
import { eq, inArray } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../test/helpers';
import type { Db } from './client';
import * as schema from './schema';
import { users } from './schema';

type Built = { sql: string; params: unknown[]; typings?: string[] };
const dialectOf = (db: unknown) =>
  (db as { dialect: { sqlToQuery(q: unknown): Built; prepareTyping?: unknown } }).dialect;

describe('statements without parameter type hints', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.dispose());

  it('builds the same text and values as a dialect that makes the hints', () => {
    const db: Db = database.db;
    // A dialect with hints, as drizzle makes it; it never connects.
    const hinted = drizzle.mock({ schema }) as unknown as Db;
    expect(dialectOf(hinted).prepareTyping).toBeTypeOf('function');
    expect(dialectOf(db).prepareTyping).toBeUndefined();
    const blockedUntil = new Date('2026-12-06T10:00:00Z');
    const statements = (d: Db) => [
      d
        .insert(users)
        .values({ id: 'u1', name: 'A', unlockedBanners: ['x', 'y'], blockedUntil })
        .getSQL(),
      d
        .update(users)
        .set({ blockedUntil, unlockedBanners: ['z'] })
        .where(eq(users.id, 'u1'))
        .getSQL(),
      d
        .select()
        .from(users)
        .where(inArray(users.id, ['u1', 'u2']))
        .getSQL(),
    ];
    const ours = statements(db).map((q) => dialectOf(db).sqlToQuery(q));
    const theirs = statements(hinted).map((q) => dialectOf(hinted).sqlToQuery(q));
    expect(ours.map(({ sql, params }) => ({ sql, params }))).toEqual(
      theirs.map(({ sql, params }) => ({ sql, params })),
    );
    // What was left out: the hints (json and timestamp here), which only the AWS Data API reads.
    expect(theirs[0].typings).toContain('json');
    expect(theirs[0].typings).toContain('timestamp');
    expect(ours[0].typings?.every((t) => t === 'none')).toBe(true);
  });

  it('stores and reads json and timestamps as before, in and out of a transaction', async () => {
    const db: Db = database.db;
    const blockedUntil = new Date('2026-12-06T10:00:00.123Z');
    await db.insert(users).values({ id: 'typed-1', name: 'T', unlockedBanners: ['a', 'b'], blockedUntil });
    await db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ unlockedBanners: ['a', 'b', 'c'] })
        .where(eq(users.id, 'typed-1'));
    });
    const [row] = await db.select().from(users).where(eq(users.id, 'typed-1'));
    expect(row.unlockedBanners).toEqual(['a', 'b', 'c']);
    expect(row.blockedUntil?.toISOString()).toBe(blockedUntil.toISOString());
  });
});
