/**
 * Queue: owns the queue entries and accept phases. Every change runs in one transaction holding a
 * transaction-level advisory lock (one queue, so joins, leaves, readies and deadlines serialise;
 * on PGlite transactions are serial anyway): nobody is in two accept phases, a match always gets
 * exactly the ten accepted players, and entries/deadlines survive a restart.
 *
 * Rules (docs/contract.md §4): joining needs a voice link and a profile name (with the MatchZy game-server
 * provider also a linked Steam account) and is refused while queued or in a live match; the
 * first ten in queue order get an accept phase (deadline ACCEPT_TIMEOUT_MS, job `queue.accept`);
 * all ten ready → a match; at the deadline the unaccepted leave the queue (PRIVATE_QUEUE_KICK),
 * the accepted keep their places (PRIVATE_QUEUE_TIMEOUT) and a new phase starts if ten remain.
 * Leaving during a phase counts as not accepting. Declining ends the phase at once: the decliner
 * leaves the queue, every other player of the phase keeps their place (PRIVATE_QUEUE_TIMEOUT
 * naming the decliner) and a new phase starts if ten are free. Every change broadcasts
 * PUBLIC_QUEUE_UPDATE {count}. Every way of missing a phase (declining, letting it run out,
 * leaving the queue during it) records a miss and its escalating cooldown (cooldowns.ts); joining
 * during a cooldown is refused with QUEUE_COOLDOWN. Every count change and every match start is
 * written to the per-minute history (insights/history.ts) in the same transaction. A place is taken
 * on the web or through the Discord bot (`via`, one queue either way); only a web place goes when the
 * player's last tab has been gone for the grace period. Every end of a phase emits
 * `queue.phaseEnded` (the Discord DMs are edited from it).
 */
import { randomUUID } from 'node:crypto';
import type { QueuePlayer, QueueReadyPayload, QueueState, UnreadyProfile } from '@openpug/shared';
import { PLAYERS_PER_MATCH } from '@openpug/shared';
import { and, asc, count, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { type After, defineJob, inTransaction, jobField, logOf } from '../../jobs';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { findUserById, findUsersByIds } from '../accounts/service';
import { recordMatchStart, recordQueueCount } from '../insights/service';
import { createMatch, findLiveMatchId } from '../matches/service';
import { refuseBanned } from '../moderation/sanctions';
import { ACCEPT_PHASE_INITIAL, type AcceptPhaseEvent, acceptPhase, entails } from './accept-phase';
import { activeCooldown, recordOffence } from './cooldowns';
import { acceptPhases, type QueueVia, queueEntries } from './schema';

/** The accept phase's deadline (ACCEPT_TIMEOUT_MS). */
export const acceptJob = defineJob({
  kind: 'queue.accept',
  payload: z.object({ phaseId: jobField.id }),
  handle: (ctx, tx, after, { phaseId }) => acceptTimedOut(ctx, tx, after, phaseId),
});

declare module '../../events' {
  interface DomainEvents {
    /** An accept phase started (after commit). Listeners must not block: notifications run in the background. */
    'queue.phaseStarted': { phaseId: string; playerIds: string[]; deadline: number };
    /** All ten accepted and the match is set (after commit). */
    'queue.matched': { phaseId: string; playerIds: string[]; matchId: string };
    /**
     * An accept phase ended (after commit): all ten accepted (`matchId`), one declined
     * (`declinedBy`) or the deadline passed (`accepted`: who had accepted and keeps their place).
     */
    'queue.phaseEnded': PhaseEnded;
  }
}
export type PhaseEnded = { phaseId: string; playerIds: string[] } & (
  | { outcome: 'matched'; matchId: string }
  | { outcome: 'declined'; declinedBy: string }
  | { outcome: 'timedout'; accepted: string[] }
);

const emitPhaseEnded = (ctx: AppContext, after: After, ended: PhaseEnded) =>
  after.add(() => void ctx.bus.emit('queue.phaseEnded', ended));

const QUEUE_LOCK_SQL = sql.raw('SELECT pg_advisory_xact_lock(7316005)');

async function lockQueue(tx: Db): Promise<void> {
  await tx.execute(QUEUE_LOCK_SQL);
}

export async function queueCount(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(queueEntries);
  return Number(row?.n ?? 0);
}

/** The queue module's per-app state (`ctx.state.queue`). */
export interface QueueModuleState {
  /** The pending coalesced PUBLIC_QUEUE_UPDATE (broadcastCount). */
  countTimer?: NodeJS.Timeout;
}
/** Milliseconds over which queue-count broadcasts are coalesced (one broadcast carries the latest count). */
export const COUNT_BROADCAST_MS = 50;

/**
 * PUBLIC_QUEUE_UPDATE {count} to everyone after a change. Changes within COUNT_BROADCAST_MS share
 * one broadcast of the count read at sending time, so a burst of joins costs one fan-out.
 */
async function broadcastCount(ctx: AppContext, tx: Db, after: After): Promise<number> {
  after.add(() => {
    if (ctx.state.queue.countTimer) return;
    const timer = setTimeout(() => {
      ctx.state.queue.countTimer = undefined;
      queueCount(ctx.db)
        .then((count) => ctx.realtime.toAll('PUBLIC_QUEUE_UPDATE', { count }))
        .catch((err) => logOf(ctx).error({ err }, 'queue count broadcast failed'));
    }, COUNT_BROADCAST_MS);
    timer.unref?.();
    ctx.state.queue.countTimer = timer;
  });
  const count = await queueCount(tx);
  await recordQueueCount(ctx, tx, count);
  return count;
}

async function phasePlayers(tx: Db, playerIds: string[], phaseId: string): Promise<QueuePlayer[]> {
  const users = await findUsersByIds(tx, playerIds);
  const entries = await tx
    .select({ userId: queueEntries.userId, accepted: queueEntries.accepted })
    .from(queueEntries)
    .where(eq(queueEntries.phaseId, phaseId));
  const accepted = new Set(entries.filter((e) => e.accepted).map((e) => e.userId));
  const byId = new Map(users.map((u) => [u.id, u]));
  return playerIds.map((id) => ({
    userId: id,
    name: byId.get(id)?.name ?? '',
    avatar: byId.get(id)?.avatar ?? null,
    accepted: accepted.has(id),
  }));
}

/** Starts accept phases for the first free ten in queue order, as long as ten are free. */
async function formPhases(ctx: AppContext, tx: Db, after: After): Promise<void> {
  for (;;) {
    const free = await tx
      .select({ userId: queueEntries.userId })
      .from(queueEntries)
      .where(isNull(queueEntries.phaseId))
      .orderBy(asc(queueEntries.seq))
      .limit(PLAYERS_PER_MATCH);
    if (free.length < PLAYERS_PER_MATCH) return;
    const ids = free.map((f) => f.userId);
    const id = randomUUID();
    const now = ctx.clock.now();
    const deadline = now + ctx.config.ACCEPT_TIMEOUT_MS;
    await tx
      .insert(acceptPhases)
      .values({ id, createdAt: now, deadline, playerIds: ids, status: ACCEPT_PHASE_INITIAL });
    await tx
      .update(queueEntries)
      .set({ phaseId: id, accepted: false })
      .where(inArray(queueEntries.userId, ids));
    await ctx.jobs.schedule(tx, after, acceptJob, { phaseId: id }, deadline);
    const payload: QueueReadyPayload = { players: await phasePlayers(tx, ids, id), deadline };
    after.add(() => {
      for (const uid of ids) ctx.realtime.toUser(uid, 'PRIVATE_QUEUE_READY', payload);
    });
    after.add(() => void ctx.bus.emit('queue.phaseStarted', { phaseId: id, playerIds: ids, deadline }));
  }
}

function patchQueue(ctx: AppContext, after: After, userIds: readonly string[], inQueue: boolean) {
  after.add(async () => {
    for (const userId of userIds) await ctx.bus.emit('status.patch', { userId, patch: { inQueue } });
  });
}

export async function joinQueue(
  ctx: AppContext,
  userId: string,
  via: QueueVia = 'web',
): Promise<{ inQueue: boolean; count: number }> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw notFound('USER_DOES_NOT_EXIST');
  if (!user.teamSpeakId) throw conflict('VOICE_NOT_LINKED');
  if (!user.name?.trim()) throw badRequest('NAME_REQUIRED');
  // Real CS2 servers (MatchZy) admit the rostered players by SteamID64 only.
  if (ctx.config.GAME_SERVER_PROVIDER === 'matchzy' && !user.steamId) throw conflict('STEAM_NOT_LINKED');
  await refuseBanned(ctx, ctx.db, userId);
  if (await activeCooldown(ctx, ctx.db, userId)) throw forbidden('QUEUE_COOLDOWN');
  return inTransaction(
    ctx.db,
    async (tx, after) => {
      await lockQueue(tx);
      if (await findLiveMatchId(tx, userId)) throw conflict('ALREADY_IN_MATCH');
      const inserted = await tx
        .insert(queueEntries)
        .values({ userId, joinedAt: ctx.clock.now(), via })
        .onConflictDoNothing()
        .returning({ userId: queueEntries.userId });
      if (inserted.length === 0) throw conflict('ALREADY_IN_QUEUE');
      await formPhases(ctx, tx, after);
      patchQueue(ctx, after, [userId], true);
      return { inQueue: true, count: await broadcastCount(ctx, tx, after) };
    },
    logOf(ctx),
  );
}

/**
 * Leaves the queue. During an accept phase this counts as not accepting. `tabGone`: the player's
 * tabs have been gone for the grace period; only a place taken on the web and outside an accept
 * phase goes (a Discord place needs no tab; a phase is settled by its own deadline).
 */
export async function leaveQueue(
  ctx: AppContext,
  userId: string,
  opts: { tabGone?: boolean } = {},
): Promise<{ inQueue: boolean; count: number }> {
  return inTransaction(
    ctx.db,
    async (tx, after) => {
      await lockQueue(tx);
      const cond = opts.tabGone
        ? and(eq(queueEntries.userId, userId), isNull(queueEntries.phaseId), eq(queueEntries.via, 'web'))
        : eq(queueEntries.userId, userId);
      if (!(await removeEntry(ctx, tx, after, userId, cond, true))) {
        if (opts.tabGone) return { inQueue: await isQueued(tx, userId), count: await queueCount(tx) };
        throw conflict('NOT_IN_QUEUE');
      }
      return { inQueue: false, count: await broadcastCount(ctx, tx, after) };
    },
    logOf(ctx),
  );
}

/**
 * Deletes the player's queue entry (matching `cond`) and tells the rest of their accept phase;
 * leaving an open phase records a miss when `countsAsMiss`. False when there was no entry.
 */
async function removeEntry(
  ctx: AppContext,
  tx: Db,
  after: After,
  userId: string,
  cond: SQL | undefined,
  countsAsMiss: boolean,
): Promise<boolean> {
  const gone = await tx.delete(queueEntries).where(cond).returning();
  if (gone.length === 0) return false;
  patchQueue(ctx, after, [userId], false);
  const phaseId = gone[0].phaseId;
  if (phaseId) {
    const [phase] = await tx.select().from(acceptPhases).where(eq(acceptPhases.id, phaseId));
    const left = phase && acceptPhase.transition(phase.status, countsAsMiss ? 'leave' : 'remove');
    if (left?.ok && entails(left, 'recordMiss')) await recordOffence(ctx, tx, after, userId, 'miss');
    if (phase) {
      const players = await phasePlayers(tx, phase.playerIds, phaseId);
      const rest = phase.playerIds.filter((id) => id !== userId);
      after.add(() => {
        for (const uid of rest) ctx.realtime.toUser(uid, 'PRIVATE_QUEUE_READY_UPDATE', { players });
      });
    }
  }
  return true;
}

/**
 * Takes a banned player out of the queue in the caller's transaction (the ban's): no miss and no
 * cooldown. An accept phase they were in runs on without them, as after a leave.
 */
export async function removeBannedFromQueue(ctx: AppContext, tx: Db, after: After, userId: string) {
  await lockQueue(tx);
  if (!(await removeEntry(ctx, tx, after, userId, eq(queueEntries.userId, userId), false))) return false;
  await broadcastCount(ctx, tx, after);
  return true;
}

/**
 * The caller's queue entry and the accept phase it is in, with the phase's transition for the
 * caller's `event`; refused with a key otherwise (no phase, or one that ended: NO_ACCEPT_PHASE).
 */
async function ownPhase(tx: Db, userId: string, event: AcceptPhaseEvent) {
  const [entry] = await tx.select().from(queueEntries).where(eq(queueEntries.userId, userId));
  if (!entry) throw conflict('NOT_IN_QUEUE');
  const [phase] = entry.phaseId
    ? await tx.select().from(acceptPhases).where(eq(acceptPhases.id, entry.phaseId))
    : [];
  if (!phase) throw conflict(acceptPhase.refusal);
  return { entry, phase, next: acceptPhase.require(phase.status, event) };
}

/** Accepts the running accept phase. Accepting twice changes nothing. */
export async function readyQueue(
  ctx: AppContext,
  userId: string,
): Promise<{ inQueue: boolean; count: number }> {
  return inTransaction(
    ctx.db,
    async (tx, after) => {
      await lockQueue(tx);
      const { entry, phase } = await ownPhase(tx, userId, 'accept');
      const phaseId = phase.id;
      if (entry.accepted) return { inQueue: true, count: await queueCount(tx) };
      await tx.update(queueEntries).set({ accepted: true }).where(eq(queueEntries.userId, userId));
      const players = await phasePlayers(tx, phase.playerIds, phaseId);
      after.add(() => {
        for (const p of players) ctx.realtime.toUser(p.userId, 'PRIVATE_QUEUE_READY_UPDATE', { players });
      });
      if (players.length === PLAYERS_PER_MATCH && players.every((p) => p.accepted)) {
        const complete = acceptPhase.require(phase.status, 'complete');
        const ids = phase.playerIds;
        await tx.delete(queueEntries).where(eq(queueEntries.phaseId, phaseId));
        if (entails(complete, 'cancelDeadline')) await ctx.jobs.cancel(tx, after, acceptJob, { phaseId });
        // Effects of the match (status patches) must follow PRIVATE_QUEUE_MATCH.
        after.add(() => {
          for (const uid of ids) ctx.realtime.toUser(uid, 'PRIVATE_QUEUE_MATCH', { matchId });
        });
        const matchId = await createMatch(ctx, tx, after, ids);
        await recordMatchStart(ctx, tx);
        await tx
          .update(acceptPhases)
          .set({ status: complete.to, matchId })
          .where(eq(acceptPhases.id, phaseId));
        after.add(() => {
          for (const uid of ids) ctx.realtime.toUser(uid, 'PRIVATE_MATCH_START', { matchId });
        });
        after.add(() => void ctx.bus.emit('queue.matched', { phaseId, playerIds: ids, matchId }));
        emitPhaseEnded(ctx, after, { phaseId, playerIds: ids, outcome: 'matched', matchId });
        return { inQueue: false, count: await broadcastCount(ctx, tx, after) };
      }
      return { inQueue: true, count: await queueCount(tx) };
    },
    logOf(ctx),
  );
}

async function unreadyProfilesOf(tx: Db, ids: string[]): Promise<UnreadyProfile[]> {
  const byId = new Map((await findUsersByIds(tx, ids)).map((u) => [u.id, u]));
  return ids.map((id) => ({
    userId: id,
    name: byId.get(id)?.name ?? '',
    avatar: byId.get(id)?.avatar ?? null,
  }));
}

/**
 * Declines the running accept phase (accepted or not yet): the phase ends now instead of holding
 * the other nine until its deadline.
 */
export async function declineQueue(
  ctx: AppContext,
  userId: string,
): Promise<{ inQueue: boolean; count: number }> {
  return inTransaction(
    ctx.db,
    async (tx, after) => {
      await lockQueue(tx);
      const { phase, next } = await ownPhase(tx, userId, 'decline');
      await tx.delete(queueEntries).where(eq(queueEntries.userId, userId));
      const rest = phase.playerIds.filter((id) => id !== userId);
      await tx
        .update(queueEntries)
        .set({ phaseId: null, accepted: false })
        .where(eq(queueEntries.phaseId, phase.id));
      await tx.update(acceptPhases).set({ status: next.to }).where(eq(acceptPhases.id, phase.id));
      if (entails(next, 'cancelDeadline')) await ctx.jobs.cancel(tx, after, acceptJob, { phaseId: phase.id });
      if (entails(next, 'recordMiss')) await recordOffence(ctx, tx, after, userId, 'miss');
      const unreadyProfiles = await unreadyProfilesOf(tx, [userId]);
      after.add(() => {
        for (const uid of rest)
          ctx.realtime.toUser(uid, 'PRIVATE_QUEUE_TIMEOUT', { type: 'timeout', unreadyProfiles });
      });
      patchQueue(ctx, after, [userId], false);
      emitPhaseEnded(ctx, after, {
        phaseId: phase.id,
        playerIds: phase.playerIds,
        outcome: 'declined',
        declinedBy: userId,
      });
      if (entails(next, 'formPhases')) await formPhases(ctx, tx, after);
      return { inQueue: false, count: await broadcastCount(ctx, tx, after) };
    },
    logOf(ctx),
  );
}

/** Deadline of an accept phase (job `queue.accept`, key = phase id). */
export async function acceptTimedOut(ctx: AppContext, tx: Db, after: After, phaseId: string): Promise<void> {
  await lockQueue(tx);
  const [phase] = await tx.select().from(acceptPhases).where(eq(acceptPhases.id, phaseId));
  const next = phase && acceptPhase.transition(phase.status, 'timeout');
  if (!phase || !next?.ok) return; // ended before its deadline
  const entries = await tx.select().from(queueEntries).where(eq(queueEntries.phaseId, phaseId));
  const accepted = entries.filter((e) => e.accepted).map((e) => e.userId);
  const kicked = entries.filter((e) => !e.accepted).map((e) => e.userId);
  const acceptedSet = new Set(accepted);
  const unreadyIds = phase.playerIds.filter((id) => !acceptedSet.has(id));
  if (kicked.length > 0) await tx.delete(queueEntries).where(inArray(queueEntries.userId, kicked));
  if (entails(next, 'recordMiss')) for (const uid of kicked) await recordOffence(ctx, tx, after, uid, 'miss');
  if (accepted.length > 0)
    await tx
      .update(queueEntries)
      .set({ phaseId: null, accepted: false })
      .where(inArray(queueEntries.userId, accepted));
  await tx.update(acceptPhases).set({ status: next.to }).where(eq(acceptPhases.id, phaseId));
  const unreadyProfiles = await unreadyProfilesOf(tx, unreadyIds);
  after.add(() => {
    for (const uid of kicked) ctx.realtime.toUser(uid, 'PRIVATE_QUEUE_KICK', { type: 'kick' });
    for (const uid of accepted)
      ctx.realtime.toUser(uid, 'PRIVATE_QUEUE_TIMEOUT', { type: 'timeout', unreadyProfiles });
  });
  patchQueue(ctx, after, kicked, false);
  emitPhaseEnded(ctx, after, { phaseId, playerIds: phase.playerIds, outcome: 'timedout', accepted });
  if (entails(next, 'formPhases')) await formPhases(ctx, tx, after);
  await broadcastCount(ctx, tx, after);
}

/** The caller's queue situation (GET /api/queue and re-sent on reconnect). */
export async function queueState(ctx: AppContext, userId: string): Promise<QueueState> {
  const [entry] = await ctx.db.select().from(queueEntries).where(eq(queueEntries.userId, userId));
  let phase: QueueReadyPayload | null = null;
  if (entry?.phaseId) {
    const [p] = await ctx.db.select().from(acceptPhases).where(eq(acceptPhases.id, entry.phaseId));
    // Shown while it can still be accepted (open).
    if (p && acceptPhase.transition(p.status, 'accept').ok)
      phase = { players: await phasePlayers(ctx.db, p.playerIds, p.id), deadline: p.deadline };
  }
  return {
    count: await queueCount(ctx.db),
    inQueue: !!entry,
    joinedAt: entry?.joinedAt ?? null,
    phase,
    matchId: await findLiveMatchId(ctx.db, userId),
    cooldown: await activeCooldown(ctx, ctx.db, userId),
  };
}

/** Queued players outside an accept phase, in queue order (substitute offers go to them). */
export async function freeQueuedUserIds(db: Db): Promise<string[]> {
  const rows = await db
    .select({ userId: queueEntries.userId })
    .from(queueEntries)
    .where(isNull(queueEntries.phaseId))
    .orderBy(asc(queueEntries.seq));
  return rows.map((r) => r.userId);
}

/** Whether the player is queued at all (in an accept phase or not). */
export async function isQueued(db: Db, userId: string): Promise<boolean> {
  const rows = await db
    .select({ userId: queueEntries.userId })
    .from(queueEntries)
    .where(eq(queueEntries.userId, userId));
  return rows.length > 0;
}

/** The accept phase a queued player is in, or null (not queued, or waiting outside a phase). */
export async function phaseIdOfPlayer(db: Db, userId: string): Promise<string | null> {
  const [entry] = await db
    .select({ phaseId: queueEntries.phaseId })
    .from(queueEntries)
    .where(eq(queueEntries.userId, userId));
  return entry?.phaseId ?? null;
}

/** An accept phase as stored (status, players, the match it became), or undefined. */
export async function acceptPhaseById(db: Db, phaseId: string) {
  const [phase] = await db.select().from(acceptPhases).where(eq(acceptPhases.id, phaseId));
  return phase;
}

/** How many players of an accept phase have accepted so far. */
export async function acceptedCountOf(db: Db, phaseId: string): Promise<number> {
  const rows = await db
    .select({ accepted: queueEntries.accepted })
    .from(queueEntries)
    .where(eq(queueEntries.phaseId, phaseId));
  return rows.filter((r) => r.accepted).length;
}

/** Which of these players are queued (in an accept phase or not). */
export async function queuedAmong(db: Db, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .select({ userId: queueEntries.userId })
    .from(queueEntries)
    .where(inArray(queueEntries.userId, [...userIds]));
  return new Set(rows.map((r) => r.userId));
}

/**
 * A queued player outside an accept phase leaves the queue to substitute in a match, in the
 * caller's transaction (under the queue lock): no miss. False when they are not queued that way.
 */
export async function takeFromQueue(ctx: AppContext, tx: Db, after: After, userId: string): Promise<boolean> {
  await lockQueue(tx);
  const cond = and(eq(queueEntries.userId, userId), isNull(queueEntries.phaseId));
  if (!(await removeEntry(ctx, tx, after, userId, cond, false))) return false;
  await broadcastCount(ctx, tx, after);
  return true;
}
