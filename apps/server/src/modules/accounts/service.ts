/**
 * Accounts service: the functions other modules use to read and change users. Other modules never
 * query the users table themselves.
 */
import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from './schema';

export type UserRow = typeof users.$inferSelect;

export async function findUserById(db: Db, id: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

export async function findUsersByIds(db: Db, ids: readonly string[]): Promise<UserRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(users)
    .where(inArray(users.id, [...ids]));
}

// Shapes, updates, passwords and lookups of the accounts module (toPublicUser, profileOf,
// updateUser, isVoiceLinked, createUser …).
export * from './users';
