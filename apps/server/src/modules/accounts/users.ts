/**
 * Accounts: user rows → the shapes of docs/contract.md §3, and the one way to change a user (`updateUser`,
 * which also pushes `privateUserUpdate` to the user's sockets). Re-exported by service.ts, which
 * is what other modules import.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { Locale, Profile, ProfilePatchEvent, PublicUser } from '@openpug/shared';
import { LOCALES } from '@openpug/shared';
import { eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { matches, matchPlayers } from '../matches/schema';
import { users } from './schema';
import { revokeSessions } from './session';

type UserRow = typeof users.$inferSelect;
export type UserPatch = Partial<Omit<UserRow, 'id' | 'createdAt'>>;

declare module '../../events' {
  interface DomainEvents {
    /** A new account exists (sign-up or first Steam login). */
    'user.created': { userId: string };
    /** The user's display name changed. */
    'user.renamed': { userId: string; name: string | null };
    /** What others see of the user changed: name, avatar or banner (the leaderboard refreshes). */
    'user.publicChanged': { userId: string };
  }
}

// --- Passwords (argon2id) ---

const ARGON2ID = 2; // @node-rs/argon2 Algorithm.Argon2id (a const enum, not importable with isolatedModules)

export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
}

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) return false;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// Process-wide on purpose (not per app, so not on ctx.state): one argon2 hash any app may compare with.
let dummyHash: Promise<string> | null = null;

/** The hash of a random password nobody knows: checked when there is no account or no password. */
export function dummyPasswordHash(): Promise<string> {
  if (!dummyHash) {
    dummyHash = hashPassword(randomBytes(24).toString('base64url'));
    dummyHash.catch(() => {
      dummyHash = null;
    });
  }
  return dummyHash;
}

/**
 * Login's password check: always one argon2 verification, against the dummy hash when the account
 * has no password (or there is no account), so the time taken does not tell which e-mail
 * addresses have accounts. True only for an account's own password.
 */
export async function checkLoginPassword(passwordHash: string | null, password: string): Promise<boolean> {
  const ok = await verifyPassword(passwordHash ?? (await dummyPasswordHash()), password);
  return ok && passwordHash !== null;
}

/**
 * Sets a new password hash (with `extra` fields) and starts a new session generation, so every
 * session token issued before stops working; then the revoked sessions' sockets and chat tokens
 * are ended too (`revokeSessions`). Returns the updated row, or null when the user is gone.
 */
export async function setPassword(
  ctx: AppContext,
  userId: string,
  passwordHash: string,
  extra: Pick<UserPatch, 'failedLogins' | 'blockedUntil'> = {},
  /** A change in the profile: the caller's token, whose sockets stay (see revokeSessions). */
  keepToken?: string,
): Promise<UserRow | null> {
  const [row] = await ctx.db
    .update(users)
    .set({ ...extra, passwordHash, sessionGeneration: sql`${users.sessionGeneration} + 1` })
    .where(eq(users.id, userId))
    .returning();
  if (row) await revokeSessions(ctx, userId, keepToken);
  return row ?? null;
}

/**
 * Starts a new session generation inside the caller's transaction (an admin ban): every token
 * issued before stops verifying once it commits. The caller runs `revokeSessions` after commit.
 */
export async function bumpSessionGeneration(db: Db, userId: string): Promise<void> {
  await db
    .update(users)
    .set({ sessionGeneration: sql`${users.sessionGeneration} + 1` })
    .where(eq(users.id, userId));
}

/** A user's current session generation, or null when there is no such user. */
export async function sessionGenerationOf(db: Db, userId: string): Promise<number | null> {
  const [row] = await db
    .select({ generation: users.sessionGeneration })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row ? row.generation : null;
}

// --- Lookups ---

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1);
  return row ?? null;
}

export async function findUserByDiscordId(db: Db, discordId: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.discordId, discordId)).limit(1);
  return row ?? null;
}

export async function findUserBySteamId(db: Db, steamId: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.steamId, steamId)).limit(1);
  return row ?? null;
}

export async function findUserByTeamSpeakId(db: Db, teamSpeakId: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.teamSpeakId, teamSpeakId)).limit(1);
  return row ?? null;
}

/**
 * Rank = position in the leaderboard order among ranked players: Elo descending, older account
 * first, then id. Ties get distinct, stable positions, the same on the card, the profile and the
 * leaderboard. A player is ranked after PLACEMENT_MATCHES finished matches (docs/contract.md §4
 * Placement); before that the rank is null (unranked).
 */
function rankedBefore(other: typeof users, user: { elo: unknown; createdAt: unknown; id: unknown }) {
  return sql`(${other.elo} > ${user.elo} OR (${other.elo} = ${user.elo} AND (${other.createdAt} < ${user.createdAt} OR (${other.createdAt} = ${user.createdAt} AND ${other.id} < ${user.id}))))`;
}

/**
 * What ranking needs: the database and the placement setting, and, once the ranking module is
 * registered, its leaderboard (typed by shape here: accounts sits below ranking).
 */
export interface RankContext {
  db: Db;
  config: { PLACEMENT_MATCHES: number };
  state?: {
    ranking: {
      leaderboard?: {
        invalidate(): void;
        ranks(ids: readonly string[]): Promise<Map<string, number | null>>;
      };
    };
  };
}

/** Users with at least `placement` finished matches (a subquery of user ids). */
export function placedUserIds(placement: number) {
  return sql`(SELECT mp.user_id FROM ${matchPlayers} mp JOIN ${matches} m ON m.id = mp.match_id
    WHERE m.status = 'finished' GROUP BY mp.user_id HAVING count(*) >= ${placement})`;
}

/**
 * `fresh`: right after a commit that moved Elo (a result, a correction), so that the ranks come
 * from a snapshot taken after it, whatever order the after-commit hooks run in.
 */
export async function ranksOfUsers(
  ctx: RankContext,
  ids: readonly string[],
  { fresh = false }: { fresh?: boolean } = {},
): Promise<Map<string, number | null>> {
  if (ids.length === 0) return new Map();
  // The leaderboard's snapshot holds every rank: one lookup. The query below counts every finished
  // match row for each call (1.8 s for one card at 100,000 players and 1,000,000 match rows), so it
  // serves only where no leaderboard runs (the admin CLI, a context without the ranking module).
  const leaderboard = ctx.state?.ranking.leaderboard;
  if (leaderboard) {
    if (fresh) leaderboard.invalidate();
    return leaderboard.ranks(ids);
  }
  const placement = ctx.config.PLACEMENT_MATCHES;
  const other = alias(users, 'other');
  const otherRanked = rankedBefore(other as unknown as typeof users, users);
  if (placement === 0) {
    const before = sql<number>`(SELECT count(*) FROM ${users} AS ${sql.identifier('other')} WHERE ${otherRanked})`;
    const rows = await ctx.db
      .select({ id: users.id, before: before.mapWith(Number) })
      .from(users)
      .where(inArray(users.id, [...ids]));
    return new Map(rows.map((r) => [r.id, r.before + 1]));
  }
  const placed = placedUserIds(placement);
  const before = sql<
    number | null
  >`CASE WHEN ${users.id} IN ${placed} THEN (SELECT count(*) FROM ${users} AS ${sql.identifier('other')} WHERE ${otherRanked} AND ${sql.identifier('other')}.id IN ${placed}) END`;
  const rows = await ctx.db
    .select({ id: users.id, before: before.mapWith((v) => (v === null ? null : Number(v))) })
    .from(users)
    .where(inArray(users.id, [...ids]));
  return new Map(rows.map((r) => [r.id, r.before === null ? null : r.before + 1]));
}

export async function rankOfUser(ctx: RankContext, row: Pick<UserRow, 'id'>): Promise<number | null> {
  return (await ranksOfUsers(ctx, [row.id])).get(row.id) ?? null;
}

// --- Shapes ---

export const isVoiceLinked = (row: Pick<UserRow, 'teamSpeakId'>): boolean => !!row.teamSpeakId;

export const localeOf = (value: string | null | undefined): Locale =>
  (LOCALES as readonly string[]).includes(value ?? '') ? (value as Locale) : 'en';

/** A user as others see them (lists, cards, friend items). */
export function toPublicUser(row: UserRow, rank?: number | null): PublicUser {
  return {
    _id: row.id,
    name: row.name,
    avatar: row.avatar,
    steamUrl: row.steamUrl,
    matrixId: null,
    stats: { elo: row.elo },
    ...(rank === undefined ? {} : { rank }),
  };
}

export function toProfile(row: UserRow, rank: number | null): Profile {
  return {
    _id: row.id,
    role: row.role,
    verified: row.verified,
    name: row.name,
    email: row.email,
    locale: localeOf(row.locale),
    steamId: row.steamId,
    csgoId: row.csgoId,
    steamUrl: row.steamUrl,
    teamSpeakId: row.teamSpeakId,
    teamSpeakName: row.teamSpeakName,
    phone: row.phone,
    whatsAppEnabled: row.whatsAppEnabled,
    avatar: row.avatar,
    sound: row.sound,
    unlockedBanners: row.unlockedBanners,
    banner: row.banner,
    unseenDropsCount: row.unseenDropsCount,
    discordId: row.discordId,
    rank,
    stats: { elo: row.elo },
  };
}

/** The own profile, or null when the user does not exist. */
export async function profileOf(ctx: AppContext, userId: string): Promise<Profile | null> {
  const [row] = await ctx.db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!row) return null;
  return toProfile(row, await rankOfUser(ctx, row));
}

const PROFILE_COLUMNS = [
  'role',
  'verified',
  'name',
  'email',
  'locale',
  'steamId',
  'csgoId',
  'steamUrl',
  'teamSpeakId',
  'teamSpeakName',
  'phone',
  'whatsAppEnabled',
  'avatar',
  'sound',
  'unlockedBanners',
  'banner',
  'unseenDropsCount',
  'discordId',
] as const satisfies readonly (keyof UserRow & keyof Profile)[];

/**
 * Changes a user and tells their sockets (`privateUserUpdate` with the changed Profile fields)
 * and other modules (`user.renamed`). Returns the updated row, or null when the user is gone.
 */
export async function updateUser(ctx: AppContext, userId: string, patch: UserPatch): Promise<UserRow | null> {
  const [before] = await ctx.db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!before) return null;
  if (Object.keys(patch).length === 0) return before;
  const [row] = await ctx.db.update(users).set(patch).where(eq(users.id, userId)).returning();
  if (!row) return null;
  await announceUserChange(ctx, before, row);
  return row;
}

/** Pushes the Profile fields that differ between two versions of a row. */
export async function announceUserChange(ctx: AppContext, before: UserRow, row: UserRow): Promise<void> {
  const changed: ProfilePatchEvent = {};
  const out = changed as Record<string, unknown>;
  for (const key of PROFILE_COLUMNS) {
    if (JSON.stringify(before[key]) !== JSON.stringify(row[key]))
      out[key] = key === 'locale' ? localeOf(row.locale) : row[key];
  }
  if (before.elo !== row.elo) {
    changed.stats = { elo: row.elo };
    changed.rank = await rankOfUser(ctx, row);
  }
  if (Object.keys(changed).length > 0) ctx.realtime.toUser(row.id, 'privateUserUpdate', changed);
  if (before.name !== row.name) await ctx.bus.emit('user.renamed', { userId: row.id, name: row.name });
  if (before.name !== row.name || before.avatar !== row.avatar || before.banner !== row.banner)
    await ctx.bus.emit('user.publicChanged', { userId: row.id });
}

/** Inserts a new account and announces `user.created`. */
export async function createUser(
  ctx: AppContext,
  fields: Omit<typeof users.$inferInsert, 'id'> & { id?: string },
): Promise<UserRow> {
  const [row] = await ctx.db
    .insert(users)
    .values({ id: randomUUID(), createdAt: new Date(ctx.clock.now()), ...fields })
    .returning();
  await ctx.bus.emit('user.created', { userId: row.id });
  return row;
}
