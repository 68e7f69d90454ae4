/**
 * Drops: the admin catalogue, awarded drops, unlocks, and the drop engine.
 *
 * The engine rolls at a configurable interval (a persisted deadline, job kind `drops.roll`, so a
 * restart keeps the schedule and only one instance rolls). Each roll without a drop raises the
 * chance of the next one by DROP_BASE_CHANCE (capped at 1); a drop resets it. A roll only counts
 * when there is something to award (a catalogue item with copies left) and someone to award it to
 * (a player of an active match); the player with the fewest drops wins, ties broken by the random
 * source. After commit: PUBLIC_DROP {username, dropName} to everyone, and the owner's
 * unseenDropsCount (the number of their unseen drops) through the accounts service, which pushes
 * privateUserUpdate.
 */
import { randomUUID } from 'node:crypto';
import type {
  CreateDrop,
  Drop,
  DropEngineSettings,
  DropEngineState,
  DropItem,
  DropItemsPage,
  DropsPage,
  ListQuery,
  Rarity,
  Unlocks,
} from '@openpug/shared';
import { BANNERS, DEFAULT_BANNER, DEFAULT_SOUND } from '@openpug/shared';
import { and, asc, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { type After, defineJob, inTransaction, jobField } from '../../jobs';
import { findUserById, findUsersByIds, updateUser } from '../accounts/service';
import { activeMatchPlayers } from '../matches';
import { recordAudit } from '../moderation';
import { dropAwards, dropEngine, drops } from './schema';

/**
 * The next roll. A fresh `nonce` each time, so a cancelled roll with the same due time does not
 * block the new one (key `<dueAt>-<nonce>`).
 */
export const rollJob = defineJob({
  kind: 'drops.roll',
  payload: z.object({ dueAt: jobField.time, nonce: jobField.id }),
  separator: '-',
  handle: (ctx, tx, after) => rollAndRearm(ctx, tx, after),
});
const ENGINE_ID = 'engine';

declare module '../../events' {
  interface DomainEvents {
    /** A drop was awarded (after commit). */
    'drop.awarded': { awardId: string; ownerId: string; dropId: string; matchId: string | null };
  }
}

type DropRow = typeof drops.$inferSelect;
type AwardRow = typeof dropAwards.$inferSelect;

// --- Random source (tests inject a sequence) ---

export type Random = () => number;
/** The drops module's per-app state (`ctx.state.drops`). */
export interface DropsModuleState {
  /** The rolls' random source; unset: Math.random. */
  random?: Random;
}
export function setRandomSource(ctx: AppContext, random: Random): void {
  ctx.state.drops.random = random;
}
const randomOf = (ctx: AppContext): Random => ctx.state.drops.random ?? Math.random;

// --- Catalogue ---

const iso = (ms: number) => new Date(ms).toISOString();

function toItem(row: DropRow, awarded: number): DropItem {
  return {
    _id: row.id,
    name: row.name,
    image: row.image,
    rarity: row.rarity,
    amount: row.amount,
    awarded,
    unlocksBanner: row.unlocksBanner,
    unlocksSound: row.unlocksSound,
    createdAt: iso(row.createdAt),
  };
}

async function awardedCounts(db: Db, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ dropId: dropAwards.dropId, n: count() })
    .from(dropAwards)
    .where(inArray(dropAwards.dropId, ids))
    .groupBy(dropAwards.dropId);
  return new Map(rows.map((r) => [r.dropId, Number(r.n)]));
}

const RARITY_ORDER = sql`array_position(ARRAY['common','uncommon','rare','legendary'], ${drops.rarity})`;

export async function listCatalogue(
  ctx: AppContext,
  q: ListQuery & { sort?: string },
): Promise<DropItemsPage> {
  const needle = q.filter?.trim();
  const where = and(
    isNull(drops.deletedAt),
    needle ? sql`${drops.name} ILIKE ${`%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}` : undefined,
  );
  const column =
    q.sort === 'name' ? sql`lower(${drops.name})` : q.sort === 'rarity' ? RARITY_ORDER : drops.createdAt;
  const dir = (q.order ?? (q.sort ? 1 : -1)) === -1 ? desc : asc;
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select()
      .from(drops)
      .where(where)
      .orderBy(dir(column), asc(drops.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    ctx.db.select({ total: count() }).from(drops).where(where),
  ]);
  const counts = await awardedCounts(
    ctx.db,
    rows.map((r) => r.id),
  );
  return { docs: rows.map((r) => toItem(r, counts.get(r.id) ?? 0)), totalDocs: Number(total) };
}

/** Every catalogue item (the season page's prizes), rarest first. */
export async function allCatalogue(ctx: AppContext): Promise<DropItem[]> {
  const rows = await ctx.db
    .select()
    .from(drops)
    .where(isNull(drops.deletedAt))
    .orderBy(desc(RARITY_ORDER), asc(drops.name));
  const counts = await awardedCounts(
    ctx.db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toItem(r, counts.get(r.id) ?? 0));
}

/** Adds a catalogue item; `actorId`, the admin, gets an audit entry in the same transaction. */
export async function createDrop(ctx: AppContext, input: CreateDrop, actorId: string): Promise<DropItem> {
  return inTransaction(ctx.db, async (tx) => {
    const [row] = await tx
      .insert(drops)
      .values({
        id: randomUUID(),
        name: input.name,
        image: input.image,
        rarity: input.rarity,
        amount: input.amount,
        unlocksBanner: input.unlocksBanner ?? null,
        unlocksSound: input.unlocksSound ?? null,
        createdAt: ctx.clock.now(),
      })
      .returning();
    await recordAudit(ctx, tx, {
      actorId,
      action: 'drop.create',
      targetType: 'drop',
      targetId: row.id,
      after: row,
    });
    return toItem(row, 0);
  });
}

/** Hides a catalogue item (awarded copies stay with their owners). False when there is none. */
export async function deleteDrop(ctx: AppContext, id: string, actorId: string): Promise<boolean> {
  return inTransaction(ctx.db, async (tx) => {
    const [row] = await tx
      .update(drops)
      .set({ deletedAt: ctx.clock.now() })
      .where(and(eq(drops.id, id), isNull(drops.deletedAt)))
      .returning();
    if (!row) return false;
    await recordAudit(ctx, tx, {
      actorId,
      action: 'drop.delete',
      targetType: 'drop',
      targetId: id,
      before: { ...row, deletedAt: null },
      after: row,
    });
    return true;
  });
}

// --- Awarded drops ---

async function toDrops(ctx: AppContext, rows: AwardRow[], withRedeemed: boolean): Promise<Drop[]> {
  if (rows.length === 0) return [];
  const items = await ctx.db
    .select()
    .from(drops)
    .where(inArray(drops.id, [...new Set(rows.map((r) => r.dropId))]));
  const byId = new Map(items.map((i) => [i.id, i]));
  const owners = await findUsersByIds(ctx.db, [...new Set(rows.map((r) => r.ownerId))]);
  const names = new Map(owners.map((o) => [o.id, o.name]));
  return rows.map((r) => {
    const item = byId.get(r.dropId) as DropRow;
    const drop: Drop = {
      _id: r.id,
      dropId: r.dropId,
      name: item.name,
      image: item.image,
      rarity: item.rarity as Rarity,
      unlocksBanner: item.unlocksBanner,
      unlocksSound: item.unlocksSound,
      owner: { _id: r.ownerId, name: names.get(r.ownerId) ?? null },
      matchId: r.matchId,
      createdAt: iso(r.createdAt),
      seen: r.seen,
    };
    if (withRedeemed) drop.redeemed = r.redeemed;
    return drop;
  });
}

/** Awarded drops, newest first: all of them (admins) or one owner's showcase. */
export async function listAwards(
  ctx: AppContext,
  q: Pick<ListQuery, 'page' | 'limit'>,
  opts: { ownerId?: string; withRedeemed: boolean },
): Promise<DropsPage> {
  const where = opts.ownerId ? eq(dropAwards.ownerId, opts.ownerId) : undefined;
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select()
      .from(dropAwards)
      .where(where)
      .orderBy(desc(dropAwards.createdAt), asc(dropAwards.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    ctx.db.select({ total: count() }).from(dropAwards).where(where),
  ]);
  return { docs: await toDrops(ctx, rows, opts.withRedeemed), totalDocs: Number(total) };
}

/** Sets `redeemed` of an awarded drop; null when there is no such drop. */
export async function setRedeemed(
  ctx: AppContext,
  id: string,
  redeemed: boolean,
  actorId: string,
): Promise<Drop | null> {
  const row = await inTransaction(ctx.db, async (tx) => {
    const [before] = await tx.select().from(dropAwards).where(eq(dropAwards.id, id)).for('update');
    if (!before) return null;
    const [updated] = await tx.update(dropAwards).set({ redeemed }).where(eq(dropAwards.id, id)).returning();
    await recordAudit(ctx, tx, {
      actorId,
      action: 'drop.update',
      targetType: 'drop',
      targetId: id,
      before: { redeemed: before.redeemed },
      after: { redeemed: updated.redeemed },
    });
    return updated;
  });
  if (!row) return null;
  return (await toDrops(ctx, [row], true))[0];
}

/** Makes the owner's unseenDropsCount equal the number of their unseen drops (pushes privateUserUpdate). */
export async function syncUnseenCount(ctx: AppContext, userId: string): Promise<void> {
  const [{ n }] = await ctx.db
    .select({ n: count() })
    .from(dropAwards)
    .where(and(eq(dropAwards.ownerId, userId), eq(dropAwards.seen, false)));
  await updateUser(ctx, userId, { unseenDropsCount: Number(n) });
}

/** POST /api/profile/markDropsAsSeen. */
export async function markDropsAsSeen(ctx: AppContext, userId: string): Promise<void> {
  await ctx.db
    .update(dropAwards)
    .set({ seen: true })
    .where(and(eq(dropAwards.ownerId, userId), eq(dropAwards.seen, false)));
  await updateUser(ctx, userId, { unseenDropsCount: 0 });
}

/** Banners and sounds a user has unlocked (defaults + what their drops unlock). */
export async function unlocksOf(ctx: AppContext, userId: string): Promise<Unlocks> {
  const user = await findUserById(ctx.db, userId);
  const rows = await ctx.db
    .select({ banner: drops.unlocksBanner, sound: drops.unlocksSound })
    .from(dropAwards)
    .innerJoin(drops, eq(drops.id, dropAwards.dropId))
    .where(eq(dropAwards.ownerId, userId));
  const banners = new Set<string>([DEFAULT_BANNER, ...(user?.unlockedBanners ?? [])]);
  const sounds = new Set<string>([DEFAULT_SOUND]);
  for (const r of rows) {
    if (r.banner) banners.add(r.banner);
    if (r.sound) sounds.add(r.sound);
  }
  const order = BANNERS as readonly string[];
  return {
    banners: [...banners].sort((a, b) => order.indexOf(a) - order.indexOf(b)),
    sounds: [...sounds],
  };
}

// --- Engine ---

interface EngineRow {
  enabled: boolean;
  intervalMs: number;
  misses: number;
  nextRollAt: number | null;
}

async function engineRow(ctx: AppContext, db: Db = ctx.db): Promise<EngineRow> {
  await db
    .insert(dropEngine)
    .values({ id: ENGINE_ID, enabled: ctx.config.DROPS_ENABLED, intervalMs: ctx.config.DROP_INTERVAL_MS })
    .onConflictDoNothing();
  const [row] = await db.select().from(dropEngine).where(eq(dropEngine.id, ENGINE_ID));
  return row;
}

export const chanceAfter = (ctx: AppContext, misses: number): number =>
  Math.min(1, ctx.config.DROP_BASE_CHANCE * (misses + 1));

export async function engineState(ctx: AppContext): Promise<DropEngineState> {
  const row = await engineRow(ctx);
  return {
    enabled: row.enabled,
    intervalMs: row.intervalMs,
    nextChance: chanceAfter(ctx, row.misses),
    nextRollAt: row.enabled && row.nextRollAt !== null ? iso(row.nextRollAt) : null,
  };
}

async function scheduleRoll(ctx: AppContext, tx: Db, after: After, dueAt: number): Promise<void> {
  await ctx.jobs.schedule(tx, after, rollJob, { dueAt, nonce: randomUUID() }, dueAt);
  await tx.update(dropEngine).set({ nextRollAt: dueAt }).where(eq(dropEngine.id, ENGINE_ID));
}

/** Admin: switch the engine on/off and set the interval; the next roll is one interval from now. */
export async function setEngine(ctx: AppContext, settings: DropEngineSettings): Promise<DropEngineState> {
  await engineRow(ctx);
  await inTransaction(ctx.db, async (tx, after) => {
    await tx
      .update(dropEngine)
      .set({ enabled: settings.enabled, intervalMs: settings.intervalMs, nextRollAt: null })
      .where(eq(dropEngine.id, ENGINE_ID));
    await ctx.jobs.cancelAll(tx, after, rollJob);
    if (settings.enabled) await scheduleRoll(ctx, tx, after, ctx.clock.now() + settings.intervalMs);
  });
  return engineState(ctx);
}

/** On start: make sure an enabled engine has a pending roll (a restart keeps the stored one). */
export async function ensureRollScheduled(ctx: AppContext): Promise<void> {
  const row = await engineRow(ctx);
  if (!row.enabled) return;
  if (await ctx.jobs.hasPending(ctx.db, rollJob)) return;
  await inTransaction(ctx.db, (tx, after) => scheduleRoll(ctx, tx, after, ctx.clock.now() + row.intervalMs));
}

export interface RollResult {
  /** What happened: no live player or nothing left to award (no roll), a miss, or a drop. */
  outcome: 'idle' | 'miss' | 'drop';
  chance: number;
  award?: { awardId: string; ownerId: string; dropId: string; dropName: string; matchId: string };
}

/**
 * One roll inside `tx` (the job's transaction). Exported for the admin "roll now" dev tool and
 * tests; `force` ignores the odds (the candidates rule still applies).
 */
export async function roll(ctx: AppContext, tx: Db, after: After, force = false): Promise<RollResult> {
  await engineRow(ctx, tx);
  // Serialize rolls: lock the engine row for this transaction, then read it.
  await tx.execute(sql`SELECT id FROM drop_engine WHERE id = ${ENGINE_ID} FOR UPDATE`);
  const engine = await engineRow(ctx, tx);
  const chance = chanceAfter(ctx, engine.misses);

  const available = await tx
    .select({ id: drops.id, name: drops.name, amount: drops.amount, awarded: count(dropAwards.id) })
    .from(drops)
    .leftJoin(dropAwards, eq(dropAwards.dropId, drops.id))
    .where(isNull(drops.deletedAt))
    .groupBy(drops.id)
    .orderBy(asc(drops.createdAt), asc(drops.id));
  const items = available.filter((d) => Number(d.awarded) < d.amount);

  const live = await activeMatchPlayers(tx);
  if (items.length === 0 || live.length === 0) return { outcome: 'idle', chance };

  const random = randomOf(ctx);
  if (!force && !(random() < chance)) {
    await tx
      .update(dropEngine)
      .set({ misses: engine.misses + 1 })
      .where(eq(dropEngine.id, ENGINE_ID));
    return { outcome: 'miss', chance };
  }

  const owned = await tx
    .select({ ownerId: dropAwards.ownerId, n: count() })
    .from(dropAwards)
    .where(
      inArray(
        dropAwards.ownerId,
        live.map((p) => p.userId),
      ),
    )
    .groupBy(dropAwards.ownerId);
  const counts = new Map(owned.map((o) => [o.ownerId, Number(o.n)]));
  const fewest = Math.min(...live.map((p) => counts.get(p.userId) ?? 0));
  const candidates = live.filter((p) => (counts.get(p.userId) ?? 0) === fewest);
  const pick = <T>(list: T[]): T => list[Math.min(list.length - 1, Math.floor(random() * list.length))];
  const winner = pick(candidates);
  const item = pick(items);

  const awardId = randomUUID();
  await tx.insert(dropAwards).values({
    id: awardId,
    dropId: item.id,
    ownerId: winner.userId,
    matchId: winner.matchId,
    createdAt: ctx.clock.now(),
  });
  await tx.update(dropEngine).set({ misses: 0 }).where(eq(dropEngine.id, ENGINE_ID));

  const award = {
    awardId,
    ownerId: winner.userId,
    dropId: item.id,
    dropName: item.name,
    matchId: winner.matchId,
  };
  after.add(async () => {
    const owner = await findUserById(ctx.db, winner.userId);
    const [row] = await ctx.db.select().from(drops).where(eq(drops.id, item.id));
    if (owner && row?.unlocksBanner && !owner.unlockedBanners.includes(row.unlocksBanner)) {
      await updateUser(ctx, owner.id, { unlockedBanners: [...owner.unlockedBanners, row.unlocksBanner] });
    }
    await syncUnseenCount(ctx, winner.userId);
    ctx.realtime.toAll('PUBLIC_DROP', { username: owner?.name ?? '?', dropName: item.name });
    await ctx.bus.emit('drop.awarded', {
      awardId,
      ownerId: winner.userId,
      dropId: item.id,
      matchId: winner.matchId,
    });
  });
  return { outcome: 'drop', chance, award };
}

/** Job `drops.roll`: roll, then schedule the next roll if the engine is still on. */
async function rollAndRearm(ctx: AppContext, tx: Db, after: After): Promise<void> {
  const engine = await engineRow(ctx, tx);
  if (!engine.enabled) return;
  await roll(ctx, tx, after);
  await scheduleRoll(ctx, tx, after, ctx.clock.now() + engine.intervalMs);
}

/** Admin dev tool: roll now (ignoring the odds when `force`). */
export function rollNow(ctx: AppContext, force: boolean): Promise<RollResult> {
  return inTransaction(ctx.db, (tx, after) => roll(ctx, tx, after, force));
}
