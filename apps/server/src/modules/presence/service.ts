/**
 * Presence: owns each user's live status object (docs/contract.md §3 "User status object") and its delivery.
 *
 * - Online while at least one authenticated socket of the user is open (any instance: the count
 *   comes from the socket hub, which asks every instance through the Redis adapter); when the last
 *   one closes the user goes offline with `lastSeen`.
 * - Other modules change flags (inQueue, inArena, teamSpeak, match) by emitting the bus event
 *   'status.patch' {userId, patch}, or by calling patchStatus().
 * - Every change is stored (table user_status, so instances agree) and pushed as
 *   `socialChangedStatus {userId, status}` to room `social:<userId>` (the user's friends) and as
 *   `privateUserUpdate {status}` to the user's own sockets.
 */
import {
  offlineStatus,
  socialRoom,
  type UserStatus,
  type UserStatusPatch,
  userStatusPatchSchema,
} from '@openpug/shared';
import { inArray, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { executeRows } from '../../db/client';
import { insertUnnested, textArray } from '../../db/unnest';
import { userRoom } from '../../realtime/hub';
import { userStatus } from './schema';

/** A stored status completed with defaults (rows written by older versions may lack fields). */
function normalize(stored: Partial<UserStatus> | null | undefined): UserStatus {
  const base = offlineStatus();
  if (!stored) return base;
  return { ...base, ...stored, match: { ...base.match, ...(stored.match ?? {}) } };
}

function merge(current: UserStatus, patch: UserStatusPatch): UserStatus {
  return { ...current, ...patch, match: { ...current.match, ...(patch.match ?? {}) } };
}

export async function getStatus(ctx: AppContext, userId: string): Promise<UserStatus> {
  return (await getStatuses(ctx, [userId])).get(userId) ?? offlineStatus();
}

/** Status of each id (offline default for users without a stored status). */
export async function getStatuses(ctx: AppContext, ids: readonly string[]): Promise<Map<string, UserStatus>> {
  const result = new Map<string, UserStatus>(ids.map((id) => [id, offlineStatus()]));
  if (ids.length === 0) return result;
  const rows = await ctx.db
    .select()
    .from(userStatus)
    .where(inArray(userStatus.userId, [...new Set(ids)]));
  for (const row of rows) result.set(row.userId, normalize(row.status));
  return result;
}

/**
 * The status of the user whose id is `userId`, an outer statement's column: a column of that
 * statement (the user card reads it with the user's row, GET /api/users/:id).
 */
export function statusColumn(userId: SQLWrapper): SQL<UserStatus> {
  // Never null (mapWith is not called for a null): a user without a row reads as offline. Aliased:
  // in a one-table select drizzle names the outer columns unqualified.
  return sql<UserStatus>`coalesce((SELECT s.status FROM ${userStatus} s WHERE s.user_id = ${userId}), '{}'::jsonb)`.mapWith(
    (stored) => normalize(stored as Partial<UserStatus> | null),
  );
}

/** The presence module's per-app state (`ctx.state.presence`). */
export interface PresenceModuleState {
  /** Bus patches waiting for their statement, in arrival order (patchStatusTogether). */
  patches: PatchGroup[];
  /** A statement of `patches` is running; new patches wait for it and go together after. */
  patching: boolean;
}

type PatchWaiter = { resolve: (status: UserStatus) => void; reject: (err: unknown) => void };
/** Patches that go in one statement: at most one per user. */
type PatchGroup = Map<string, { patch: UserStatusPatch; waiter: PatchWaiter }>;

export function initialPresenceState(): PresenceModuleState {
  return { patches: [], patching: false };
}

/** Pushes a status to the user's friends and to the user's own tabs. */
export function pushStatus(ctx: AppContext, userId: string, status: UserStatus): void {
  if (ctx.realtime.closing) return;
  ctx.realtime.toRoom(socialRoom(userId), 'socialChangedStatus', { userId, status });
  // Every socket of the user: the own card shows it, and a tab re-reads the queue when it says
  // otherwise (web features/queue/queueSync.ts).
  ctx.realtime.toRoom(userRoom(userId), 'privateUserUpdate', { status });
}

/**
 * Merges a patch into the stored status in one atomic statement (concurrent patches from several
 * modules or instances never overwrite each other's fields), then pushes the result.
 */
export async function patchStatus(
  ctx: AppContext,
  userId: string,
  patch: UserStatusPatch,
): Promise<UserStatus> {
  const clean = userStatusPatchSchema.parse(patch) as UserStatusPatch;
  return (await patchStatuses(ctx, samePatch([userId], clean))).get(userId) ?? offlineStatus();
}

/**
 * patchStatus for several users, each with their own patch, in one statement (distinct ids): a
 * match start patches ten players with ten different patches (their match, their team). The
 * patches are checked by the callers (userStatusPatchSchema), so one that is malformed is refused
 * alone, before it could fail the statement of others.
 */
async function patchStatuses(
  ctx: AppContext,
  clean: ReadonlyMap<string, UserStatusPatch>,
): Promise<Map<string, UserStatus>> {
  const userIds = [...clean.keys()];
  const parts = [...clean.values()].map((patch) => {
    const { match, ...flat } = patch;
    return {
      flat: JSON.stringify(flat),
      match: JSON.stringify(match ?? {}),
      inserted: merge(offlineStatus(), patch),
    };
  });
  // One patch for all: constants; otherwise each row's own patch, found by its user id's place in
  // the statement's arrays (db/unnest.ts: one parameter per column, not per value).
  const same = parts.every((p) => p.flat === parts[0].flat && p.match === parts[0].match);
  const perUser = (field: 'flat' | 'match') =>
    same
      ? sql`${parts[0][field]}::jsonb`
      : sql`(${textArray(parts.map((p) => p[field]))})[array_position(${textArray(userIds)}, excluded.user_id)]::jsonb`;
  const now = new Date(ctx.clock.now());
  const rows = await executeRows<{ user_id: string; status: UserStatus }>(
    ctx.db,
    sql`${insertUnnested(
      userStatus,
      ['userId', 'status', 'updatedAt'],
      userIds.map((userId, i) => ({ userId, status: parts[i].inserted, updatedAt: now })),
    )} ON CONFLICT (${sql.identifier(userStatus.userId.name)}) DO UPDATE SET
      status = ${userStatus.status} || ${perUser('flat')} || jsonb_build_object('match', coalesce(${userStatus.status} -> 'match', '{}'::jsonb) || ${perUser('match')}),
      updated_at = excluded.updated_at
    RETURNING ${userStatus.userId}, ${userStatus.status}`,
  );
  const result = new Map<string, UserStatus>();
  for (const row of rows) {
    const status = normalize(row.status);
    result.set(row.user_id, status);
    pushStatus(ctx, row.user_id, status);
  }
  return result;
}

const samePatch = (userIds: readonly string[], patch: UserStatusPatch) =>
  new Map(userIds.map((id) => [id, patch]));

/**
 * patchStatus for the bus event 'status.patch': the patches of many users in the same turn of
 * the event loop (a queue pop, a match start, 1,000 players joining within a second) become one
 * statement instead of one each; issue 20 target 4 measured these as the bulk of the database's
 * work between the first join and the 100th match start (bench/RESULTS.md). Order per user is
 * kept: a patch joins the last waiting group unless that group already patches its user (then it
 * starts a new group), and groups run one after another.
 */
export function patchStatusTogether(
  ctx: AppContext,
  userId: string,
  patch: UserStatusPatch,
): Promise<UserStatus> {
  const state = ctx.state.presence;
  const checked = userStatusPatchSchema.safeParse(patch);
  if (!checked.success) return Promise.reject(checked.error);
  const clean = checked.data as UserStatusPatch;
  return new Promise((resolve, reject) => {
    let group = state.patches.at(-1);
    if (!group || group.has(userId)) {
      group = new Map();
      state.patches.push(group);
    }
    group.set(userId, { patch: clean, waiter: { resolve, reject } });
    if (!state.patching) {
      state.patching = true;
      setImmediate(() => void drainPatches(ctx));
    }
  });
}

async function drainPatches(ctx: AppContext): Promise<void> {
  const state = ctx.state.presence;
  for (let group = state.patches.shift(); group; group = state.patches.shift()) {
    try {
      const statuses = await patchStatuses(
        ctx,
        new Map([...group].map(([userId, { patch }]) => [userId, patch])),
      );
      for (const [userId, { waiter }] of group) waiter.resolve(statuses.get(userId) ?? offlineStatus());
    } catch (err) {
      for (const { waiter } of group.values()) waiter.reject(err);
    }
  }
  state.patching = false;
}

/** A socket of the user authenticated: the user is online (pushed only on the transition). */
export async function markOnline(ctx: AppContext, userId: string): Promise<void> {
  await markOnlineMany(ctx, [userId]);
}

/**
 * markOnline for the users of many sockets signing in together: one read of their statuses and
 * one write for those not yet online (a reconnect storm brings thousands at once).
 */
export async function markOnlineMany(
  ctx: AppContext,
  userIds: readonly string[],
): Promise<Map<string, true>> {
  const current = await getStatuses(ctx, userIds);
  const offline = [...current].filter(([, status]) => !status.online).map(([id]) => id);
  if (offline.length > 0) await patchStatuses(ctx, samePatch(offline, { online: true }));
  return new Map(userIds.map((id) => [id, true]));
}

/**
 * A socket of the user closed or logged out: offline with lastSeen once no socket is left on any
 * instance. Re-checks after writing, so a tab opened meanwhile puts the user back online. True
 * when the user ends up offline.
 */
export async function markMaybeOffline(ctx: AppContext, userId: string): Promise<boolean> {
  return (await markMaybeOfflineMany(ctx, [userId])).get(userId) ?? false;
}

/**
 * markMaybeOffline for the users of many sockets closing together (a restart closes them all):
 * one read and one write for those without a socket left. True for each user who ends up offline.
 */
export async function markMaybeOfflineMany(
  ctx: AppContext,
  userIds: readonly string[],
): Promise<Map<string, boolean>> {
  const result = new Map<string, boolean>(userIds.map((id) => [id, false]));
  // While the app shuts down every socket closes at once; the next start (or another instance)
  // settles presence, and the Redis adapter must not be asked anything once it is closing.
  if (ctx.realtime.closing) return result;
  const before = await ctx.realtime.socketCounts(userIds);
  const gone = userIds.filter((id) => before.get(id) === 0);
  if (ctx.realtime.closing || gone.length === 0) return result;
  const current = await getStatuses(ctx, gone);
  const online = gone.filter((id) => current.get(id)?.online);
  if (online.length > 0)
    await patchStatuses(ctx, samePatch(online, { online: false, lastSeen: ctx.clock.now() }));
  // Re-checked after writing: a tab opened meanwhile puts its user back online.
  const after = ctx.realtime.closing ? new Map<string, number>() : await ctx.realtime.socketCounts(gone);
  for (const id of gone) {
    if (!ctx.realtime.closing && (after.get(id) ?? 0) > 0) await markOnline(ctx, id);
    else result.set(id, true);
  }
  return result;
}

/**
 * Users stored online without a socket on any instance: their instance died without closing its
 * sockets (with REDIS_URL the start-up reset below cannot run). Each goes offline through
 * markMaybeOffline, which re-checks the sockets, so a tab that connected meanwhile keeps its user
 * online. The bus hears 'presence.lost' for each user set offline.
 */
export async function sweepStaleOnline(ctx: AppContext): Promise<void> {
  const stored = await ctx.db
    .select({ userId: userStatus.userId })
    .from(userStatus)
    .where(sql`(${userStatus.status} ->> 'online')::boolean`);
  // Shutting down: the Redis adapter must not be asked anything (see markMaybeOffline).
  if (stored.length === 0 || ctx.realtime.closing) return;
  const connected = await ctx.realtime.connectedUserIds();
  for (const { userId } of stored) {
    if (connected.has(userId)) continue;
    if (await markMaybeOffline(ctx, userId)) await ctx.bus.emit('presence.lost', { userId });
  }
}

/**
 * Single-instance start-up: no socket can be connected yet, so any stored "online" is left over
 * from a previous run. (With REDIS_URL other instances may hold sockets, so this is skipped.)
 */
export async function resetStaleOnline(ctx: AppContext): Promise<void> {
  await ctx.db
    .update(userStatus)
    .set({
      status: sql`${userStatus.status} || jsonb_build_object('online', false, 'lastSeen', (extract(epoch from ${userStatus.updatedAt}) * 1000)::bigint)`,
    })
    .where(sql`(${userStatus.status} ->> 'online')::boolean`);
}
