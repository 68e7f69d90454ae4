/**
 * Arena servers (docs/contract.md §3 "In Arena"): public CS2 warm-up servers (deathmatch,
 * retakes) that admins list. Every ARENA_POLL_MS one instance (job `arena.poll`, one row that
 * re-arms itself, like `presence.sweep`) asks each server over RCON for `status_json`, which lists
 * the SteamID64 of every human on it (cs2-status.ts: CS2's `status` lists none). Players whose
 * linked Steam account (users.steamId) is on a server are "In Arena": the bus event 'status.patch'
 * {inArena} sets the flag (presence pushes it to the player's friends and tabs). A player who left,
 * and every player of a server that stops answering or is deleted, gets inArena false after the
 * next poll. Only changes are patched.
 *
 * The network work runs after the claiming transaction has committed (no RCON call inside a
 * transaction); the answers are stored in a transaction of their own, and the patches are sent
 * after that one commits.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { AdminArenaServer, ArenaServer, ArenaServerCreate, ArenaServerUpdate } from '@openpug/shared';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { type After, defineJob, inTransaction, logOf } from '../../jobs';
import { notFound } from '../../lib/errors';
import { findUserIdsBySteamIds } from '../accounts/service';
import { parseCs2StatusJson, withRcon } from '../gameservers';
import { arenaServers } from './schema';

/** The arena poll: one row (every instance arms it, it fires once) that re-arms itself. */
export const arenaPollJob = defineJob({
  kind: 'arena.poll',
  payload: z.object({}),
  singleRow: 'next',
  handle: (ctx, tx, after) => arenaPoll(ctx, tx, after),
});

export type ArenaRow = typeof arenaServers.$inferSelect;

const live = isNull(arenaServers.deletedAt);

export function toArenaServer(row: ArenaRow): ArenaServer {
  return { _id: row.id, name: row.name, address: row.address, online: row.online, players: row.players };
}

export function toAdminArenaServer(row: ArenaRow): AdminArenaServer {
  return { ...toArenaServer(row), rconAddress: row.rconAddress, polledAt: row.polledAt };
}

export async function listArenaServers(db: Db): Promise<ArenaRow[]> {
  return db
    .select()
    .from(arenaServers)
    .where(live)
    .orderBy(asc(arenaServers.name), asc(arenaServers.createdAt));
}

export async function createArenaServer(ctx: AppContext, input: ArenaServerCreate): Promise<ArenaRow> {
  const [row] = await ctx.db
    .insert(arenaServers)
    .values({ id: randomUUID(), ...input, createdAt: ctx.clock.now() })
    .returning();
  return row;
}

/** Changes a server; a new RCON address or password is used from the next poll on. */
export async function updateArenaServer(
  ctx: AppContext,
  id: string,
  patch: ArenaServerUpdate,
): Promise<ArenaRow> {
  const set = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  const [row] =
    Object.keys(set).length === 0
      ? await ctx.db
          .select()
          .from(arenaServers)
          .where(and(eq(arenaServers.id, id), live))
      : await ctx.db
          .update(arenaServers)
          .set(set)
          .where(and(eq(arenaServers.id, id), live))
          .returning();
  if (!row) throw notFound();
  return row;
}

/** Every user "In Arena" by the stored rows (on any live server); substitute offers reach them too. */
export async function inArenaIds(tx: Db): Promise<Set<string>> {
  const rows = await tx.select({ userIds: arenaServers.userIds }).from(arenaServers).where(live);
  return new Set(rows.flatMap((r) => r.userIds));
}

/** After commit: inArena true for those who came, false for those who left every server. */
function patchChanges(ctx: AppContext, after: After, before: Set<string>, now: Set<string>): void {
  const changes: [string, boolean][] = [
    ...[...now].filter((id) => !before.has(id)).map((id): [string, boolean] => [id, true]),
    ...[...before].filter((id) => !now.has(id)).map((id): [string, boolean] => [id, false]),
  ];
  if (changes.length === 0) return;
  after.add(async () => {
    for (const [userId, inArena] of changes)
      await ctx.bus.emit('status.patch', { userId, patch: { inArena } });
  });
}

/**
 * Deletes a server (kept as a row without its password, see schema.ts); its players leave the
 * arena unless they are on another server.
 */
export async function deleteArenaServer(ctx: AppContext, id: string): Promise<void> {
  await inTransaction(
    ctx.db,
    async (tx, after) => {
      const before = await inArenaIds(tx);
      const [row] = await tx
        .update(arenaServers)
        .set({ deletedAt: ctx.clock.now(), rconPassword: '', userIds: [], online: false, players: 0 })
        .where(and(eq(arenaServers.id, id), live))
        .returning({ id: arenaServers.id });
      if (!row) throw notFound();
      patchChanges(ctx, after, before, await inArenaIds(tx));
    },
    logOf(ctx),
  );
}

/** A stable uuid for a seeded server, so instances starting together store it once. */
function seedId(rconAddress: string): string {
  const h = createHash('sha256').update(`arena-seed:${rconAddress}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * ARENA_SERVERS on first start: stored only while the table has never had a row (deleted servers
 * keep theirs), so the admins' list is never overwritten by the environment.
 */
export async function seedArenaServers(ctx: AppContext): Promise<number> {
  const seed = ctx.config.arenaSeed;
  if (seed.length === 0) return 0;
  const [{ n }] = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(arenaServers);
  if (n > 0) return 0;
  const now = ctx.clock.now();
  const rows = await ctx.db
    .insert(arenaServers)
    .values(seed.map((s, i) => ({ id: seedId(s.rconAddress), ...s, createdAt: now + i })))
    .onConflictDoNothing()
    .returning({ id: arenaServers.id });
  return rows.length;
}

/** The SteamID64s on a server, or null when it does not answer (or not with status_json). */
async function playersOn(ctx: AppContext, row: ArenaRow): Promise<string[] | null> {
  const i = row.rconAddress.lastIndexOf(':');
  const host = row.rconAddress.slice(0, i).replace(/^\[|\]$/g, '');
  const port = Number(row.rconAddress.slice(i + 1));
  // A poll must be over before the next one is due.
  const timeoutMs = Math.max(500, Math.min(ctx.config.CS2_RCON_TIMEOUT_MS, ctx.config.ARENA_POLL_MS / 2));
  try {
    return await withRcon({ host, port, password: row.rconPassword, timeoutMs }, async (rcon) =>
      parseCs2StatusJson(await rcon.command('status_json')),
    );
  } catch {
    return null;
  }
}

/** The arena module's per-app state (`ctx.state.arena`). */
export interface ArenaModuleState {
  /** A poll is under way (it may wait on a slow server): the next one does not start. */
  polling: boolean;
}

/**
 * Asks every server who is on it and stores the answers; inArena follows (see the top). False when
 * a poll was already under way, so this one did not run.
 */
export async function pollArenaServers(ctx: AppContext): Promise<boolean> {
  if (ctx.state.arena.polling) return false; // the previous poll is still waiting for a slow server
  ctx.state.arena.polling = true;
  try {
    const rows = await listArenaServers(ctx.db);
    if (rows.length === 0) return true; // a deleted server's players left the arena at once
    const answers = await Promise.all(rows.map((row) => playersOn(ctx, row)));
    const steamToUser = await findUserIdsBySteamIds(ctx.db, [...new Set(answers.flatMap((a) => a ?? []))]);
    const polledAt = ctx.clock.now();
    await inTransaction(
      ctx.db,
      async (tx, after) => {
        const before = await inArenaIds(tx);
        for (const [i, row] of rows.entries()) {
          const steamIds = answers[i];
          const userIds = (steamIds ?? []).flatMap((s) => steamToUser.get(s) ?? []);
          await tx
            .update(arenaServers)
            .set({ online: steamIds !== null, players: steamIds?.length ?? 0, userIds, polledAt })
            .where(and(eq(arenaServers.id, row.id), live));
        }
        patchChanges(ctx, after, before, await inArenaIds(tx));
      },
      logOf(ctx),
    );
    return true;
  } finally {
    ctx.state.arena.polling = false;
  }
}

/** Job `arena.poll`: re-arms its own row first (a crash goes on polling), then polls after commit. */
async function arenaPoll(ctx: AppContext, tx: Db, after: After): Promise<void> {
  await ctx.jobs.reschedule(tx, after, arenaPollJob, {}, ctx.clock.now() + ctx.config.ARENA_POLL_MS);
  after.add(() => pollArenaServers(ctx));
}
