/**
 * loadMatch sends the match read and the players read together (one wait instead of two). With
 * `lock`, the players must still be read once the match row's lock is held: a transaction that
 * held the lock and added a player is seen whole. On PostgreSQL a players read sent before the
 * lock (or beside it, on another connection) would see the roster as it was before that commit.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../../test/helpers';
import { matches, matchPlayers } from './schema';
import { loadMatch } from './service';

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.dispose());

const player = (matchId: string, userId: string) => ({ matchId, userId, name: userId, elo: 1000 });

it('reads the players after taking the match lock, and answers null for a missing match', async () => {
  const id = randomUUID();
  await database.db.insert(matches).values({
    id,
    status: 'playerveto',
    createdAt: 1,
    teamOneName: 'a',
    teamTwoName: 'b',
    pickOrder: 'ABBAABBA',
    mapPool: [],
  });
  await database.db.insert(matchPlayers).values(player(id, 'u1'));

  let holding!: () => void;
  const held = new Promise<void>((resolve) => {
    holding = resolve;
  });
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const writer = database.db.transaction(async (tx) => {
    await loadMatch(tx, id, true);
    await tx.insert(matchPlayers).values(player(id, 'u2'));
    holding();
    await released;
  });
  await held;
  const reader = database.db.transaction((tx) => loadMatch(tx, id, true));
  // The reader is waiting for the lock now (on PGlite, for the writer's whole transaction).
  await new Promise((resolve) => setTimeout(resolve, 200));
  release();
  await writer;
  const found = await reader;
  expect(found?.players.map((p) => p.userId).sort()).toEqual(['u1', 'u2']);

  expect(await loadMatch(database.db, randomUUID())).toBeNull();
  expect((await loadMatch(database.db, id))?.match.id).toBe(id);
});
