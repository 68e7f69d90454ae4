/**
 * INSERT … SELECT FROM unnest (db/unnest.ts): every column type the app writes this way goes in as
 * text and comes back as its own type, texts that an array literal must escape arrive unchanged,
 * nulls stay nulls (not the text "NULL"), and the statement carries one parameter per column.
 * Both engines (the server-pg project runs it on PostgreSQL).
 */
import { asc, eq, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../test/helpers';
import { userStatus } from '../modules/presence/schema';
import { queueEntries } from '../modules/queue/schema';
import { executeRows } from './client';
import { users } from './schema';
import { insertUnnested } from './unnest';

const awkward = ['a,b', 'say "hi"', 'back\\slash', '{braces}', 'NULL', '', ' spaced ', 'ünï 🎯', "it's"];

describe('insertUnnested', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.dispose());

  it('writes texts, numbers, booleans and nulls, with one parameter per column', async () => {
    const db = database.db;
    const rows = awkward.map((text, i) => ({
      userId: `u${i}`,
      joinedAt: 1_764_000_000_000 + i,
      phaseId: i % 3 === 0 ? null : text,
      accepted: i % 2 === 0,
      via: i % 2 === 0 ? ('web' as const) : ('discord' as const),
    }));
    const statement = insertUnnested(
      queueEntries,
      ['userId', 'joinedAt', 'phaseId', 'accepted', 'via'],
      rows,
    );
    expect(new PgDialect().sqlToQuery(statement).params).toHaveLength(5);
    const returned = await executeRows<{ user_id: string }>(
      db,
      sql`${statement} ON CONFLICT DO NOTHING RETURNING ${queueEntries.userId}`,
    );
    expect(returned.map((r) => r.user_id).sort()).toEqual(rows.map((r) => r.userId).sort());
    const stored = await db
      .select({
        userId: queueEntries.userId,
        joinedAt: queueEntries.joinedAt,
        phaseId: queueEntries.phaseId,
        accepted: queueEntries.accepted,
        via: queueEntries.via,
      })
      .from(queueEntries)
      .orderBy(asc(queueEntries.joinedAt));
    expect(stored).toEqual(rows);
    // The table's defaults fill the columns not named (the queue order).
    const [first] = await db
      .select({ seq: queueEntries.seq })
      .from(queueEntries)
      .where(eq(queueEntries.userId, 'u0'));
    expect(first.seq).toBeGreaterThan(0);

    // Conflicting rows are left alone and not returned.
    const again = await executeRows<{ user_id: string }>(
      db,
      sql`${insertUnnested(
        queueEntries,
        ['userId', 'joinedAt'],
        [
          { userId: 'u0', joinedAt: 1 },
          { userId: 'new', joinedAt: 2 },
        ],
      )} ON CONFLICT DO NOTHING RETURNING ${queueEntries.userId}`,
    );
    expect(again).toEqual([{ user_id: 'new' }]);
  });

  it('writes json and timestamps', async () => {
    const db = database.db;
    await db.insert(users).values([
      { id: 'j1', name: 'J1' },
      { id: 'j2', name: 'J2' },
    ]);
    const at = new Date('2026-12-06T15:00:00.123Z');
    const status = { online: true, note: awkward, match: { score: { teamOne: 3 } } };
    await db.execute(
      insertUnnested(
        userStatus,
        ['userId', 'status', 'updatedAt'],
        [
          { userId: 'j1', status: status as never, updatedAt: at },
          { userId: 'j2', status: {} as never, updatedAt: at },
        ],
      ),
    );
    const stored = await db.select().from(userStatus).orderBy(asc(userStatus.userId));
    expect(stored).toEqual([
      { userId: 'j1', status, updatedAt: at },
      { userId: 'j2', status: {}, updatedAt: at },
    ]);
  });
});
