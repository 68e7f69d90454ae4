/**
 * Accounts service: the functions other modules use to read and change users. Other modules never
 * query the users table themselves.
 */
import { asc, count, desc, eq, ilike, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { batched } from '../../lib/batch';
import { users } from './schema';

export type UserRow = typeof users.$inferSelect;

/** How the chat module hands out the messaging credentials returned at login (chat/routes.ts). */
export type MatrixSessionProvider = (userId: string) => Promise<unknown>;
/** How the chat module revokes the messaging credentials handed out at login. */
export type ChatRevoker = (userId: string) => Promise<void>;
/** The accounts module's per-app state (`ctx.state.accounts`): the chat module's hooks. */
export interface AccountsModuleState {
  matrixSession?: MatrixSessionProvider;
  chatRevoker?: ChatRevoker;
  /** findUsersByIdsSoon's loader, made on first use. */
  userLoader?: (id: string) => Promise<UserRow | null>;
}

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

/** One user by id (null when there is none); the reads of one turn of the event loop share one query (lib/batch.ts). */
export function userLoader(db: Db): (id: string) => Promise<UserRow | null> {
  return batched(
    async (keys: string[]) => new Map((await findUsersByIds(db, keys)).map((u) => [u.id, u])),
    null as UserRow | null,
  );
}

/**
 * findUsersByIds on the app's database for work after a commit (notification fan-outs): the reads
 * of one turn of the event loop share one query (lib/batch.ts). A queue batch that starts twenty
 * accept phases emits twenty `queue.phaseStarted`, and Discord and WhatsApp each read the ten
 * players of every one: forty queries became one (issue 20).
 */
export async function findUsersByIdsSoon(ctx: AppContext, ids: readonly string[]): Promise<UserRow[]> {
  ctx.state.accounts.userLoader ??= userLoader(ctx.db);
  const load = ctx.state.accounts.userLoader;
  const rows = await Promise.all(ids.map((id) => load(id)));
  return rows.filter((r): r is UserRow => r !== null);
}

/** SteamID64 → user id of the users who linked one of `steamIds` (arena presence). */
export async function findUserIdsBySteamIds(
  db: Db,
  steamIds: readonly string[],
): Promise<Map<string, string>> {
  if (steamIds.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, steamId: users.steamId })
    .from(users)
    .where(inArray(users.steamId, [...steamIds]));
  return new Map(rows.map((r) => [r.steamId as string, r.id]));
}

// --- Directory and ranking queries (used by the users and friends modules) ---

export interface UserPageQuery {
  sort?: 'name' | 'elo' | 'createdAt';
  order?: -1 | 1;
  page: number;
  limit: number;
  /** Case-insensitive substring of the name. */
  filter?: string;
}

/** One page of users (ties broken by id so pages never overlap) and the total count. */
export async function findUsersPage(db: Db, q: UserPageQuery): Promise<{ rows: UserRow[]; total: number }> {
  const needle = q.filter?.trim();
  const where = needle ? ilike(users.name, `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined;
  const columns = { name: sql`lower(${users.name})`, elo: users.elo, createdAt: users.createdAt };
  const column = columns[q.sort ?? 'name'];
  const dir = q.order === -1 ? desc : asc;
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(dir(column), asc(users.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    db.select({ total: count() }).from(users).where(where),
  ]);
  return { rows, total };
}

// --- Rating and roles (used by the matches module) ---

/** Adds `delta` to a user's Elo atomically; returns the Elo before and after (null if no such user). */
export async function adjustElo(
  db: Db,
  userId: string,
  delta: number,
): Promise<{ before: number; after: number } | null> {
  const [row] = await db
    .update(users)
    .set({ elo: sql`${users.elo} + ${delta}` })
    .where(eq(users.id, userId))
    .returning({ elo: users.elo });
  return row ? { before: row.elo - delta, after: row.elo } : null;
}

/** Sets a user's Elo (admin corrections, tests). */
export async function setElo(db: Db, userId: string, elo: number): Promise<void> {
  await db.update(users).set({ elo }).where(eq(users.id, userId));
}

/** Ids of every user with the given role (e.g. the admins that receive help requests). */
export async function findUserIdsByRole(db: Db, role: 'ADMIN' | 'USER'): Promise<string[]> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.role, role));
  return rows.map((r) => r.id);
}

// Users as other players see them (friends, the directory, the user card).
export { socialUser, socialUsers } from './directory';
// Shapes, updates, passwords and lookups of the accounts module (toPublicUser, profileOf,
// updateUser, isVoiceLinked, createUser …).
export * from './users';
