/**
 * Queue: owns the queue entries and accept phases. Every change runs in one transaction holding
 * transaction-level advisory locks (the entry lock for joins, the phase lock for accepts, both for
 * leaves, declines, deadlines, bans and substitutes; on PGlite transactions are serial anyway):
 * nobody is in two accept phases, a match always gets exactly the ten accepted players, and
 * entries/deadlines survive a restart. Joins and accepts that arrive while one of their kind is
 * being written share the next transaction (`Together`), so a crowd queueing at once costs a few
 * transactions, not one each, and a batch costs the same few statements however many phases it
 * forms or completes.
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
import type { Cooldown, QueuePlayer, QueueReadyPayload, QueueState, UnreadyProfile } from '@openpug/shared';
import { PLAYERS_PER_MATCH } from '@openpug/shared';
import { and, asc, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { type Db, executeRows, sentTogether, takeAdvisoryLocks } from '../../db/client';
import { type CommitWith, pipelinedTransaction } from '../../db/pipelined';
import { insertUnnested } from '../../db/unnest';
import { After, defineJob, inTransaction, jobField, logOf } from '../../jobs';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { findUsersByIds, type UserRow } from '../accounts/service';
import { recordQueueCount } from '../insights/service';
import {
  liveMatchChecks,
  liveMatchIdQuery,
  planMatches,
  readMatchInputs,
  writeMatches,
} from '../matches/service';
import { banChecks } from '../moderation';
import { ACCEPT_PHASE_INITIAL, type AcceptPhaseEvent, acceptPhase, entails } from './accept-phase';
import { activeCooldownQuery, cooldownChecks, recordOffence } from './cooldowns';
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
declare module '../../realtime/hub' {
  interface InstanceSignals {
    /** The queue count changed on another instance: this one's sockets are due it (countDue). */
    'queue.count-due': true;
  }
}
export type PhaseEnded = { phaseId: string; playerIds: string[] } & (
  | { outcome: 'matched'; matchId: string }
  | { outcome: 'declined'; declinedBy: string }
  | { outcome: 'timedout'; accepted: string[] }
);

const emitPhaseEnded = (ctx: AppContext, after: After, ended: PhaseEnded) =>
  after.add(() => void ctx.bus.emit('queue.phaseEnded', ended));

/**
 * Two transaction-level advisory locks. Joins take only the entry lock and accepts only the phase
 * lock, so the joins and the accepts of a crowd each run one batch at a time, side by side: they
 * touch different rows (a join inserts entries and puts free ones into new phases; an accept
 * writes the entries of open phases, and a completed phase's delete never frees an entry), and
 * taking turns on one lock had made each wait for the other's batch (issue 20). A join that
 * raced a match start for the same player finds the match after its insert (below). Every other
 * change (leave, decline, deadline, ban, substitute) takes both, entry lock first, so it sees
 * neither kind half done; nobody takes them in the other order.
 */
const ENTRY_LOCK = 7316005;
const PHASE_LOCK = 7316006;
const ENTRY_LOCK_SQL = sql.raw(`SELECT pg_advisory_xact_lock(${ENTRY_LOCK})`);
const PHASE_LOCK_SQL = sql.raw(`SELECT pg_advisory_xact_lock(${PHASE_LOCK})`);
// One statement; its target list is evaluated left to right, so the entry lock comes first.
const BOTH_LOCKS_SQL = sql.raw(
  `SELECT pg_advisory_xact_lock(${ENTRY_LOCK}), pg_advisory_xact_lock(${PHASE_LOCK})`,
);

/** Both queue locks: the whole queue holds still. */
function lockQueue(ctx: AppContext, tx: Db): Promise<void> {
  return takeAdvisoryLocks(ctx.database, tx, BOTH_LOCKS_SQL);
}

/** The queue's size: read alone (queueCount), recorded (broadcastCount), a column (queueState). */
const QUEUE_COUNT_SQL = sql`SELECT count(*)::int AS n FROM ${queueEntries}`;

export async function queueCount(db: Db): Promise<number> {
  const [row] = await executeRows<{ n: number }>(db, QUEUE_COUNT_SQL);
  return Number(row?.n ?? 0);
}

/** The queue module's per-app state (`ctx.state.queue`). */
export interface QueueModuleState {
  /** A coalesced PUBLIC_QUEUE_UPDATE is due: its window runs or it waits for calm (broadcastCount). */
  countDue?: boolean;
  /** Joins and accepts that arrive together, written in one transaction each (batchesOf). */
  batches?: QueueBatches;
}
/** Milliseconds over which queue-count broadcasts are coalesced (one broadcast carries the latest count). */
export const COUNT_BROADCAST_MS = 50;
/** Sockets per COUNT_BROADCAST_MS of coalescing, and the longest window. */
const SOCKETS_PER_WINDOW = 100;
const MAX_COUNT_WINDOW_MS = 1000;

/**
 * PUBLIC_QUEUE_UPDATE {count} to everyone after a change. Changes within the window share one
 * broadcast of the count read at sending time, so a burst of joins costs one fan-out. The window
 * is COUNT_BROADCAST_MS per 100 sockets connected here (at most 1 s): every broadcast is one frame
 * per socket, and at 1,000 sockets twenty a second were most of the server's work while 1,000
 * players queued at once (issue 20); this keeps it near 2,000 frames a second at any size.
 */
function countWindowMs(ctx: AppContext): number {
  const sockets = ctx.realtime.io.engine?.clientsCount ?? 0;
  return Math.min(
    MAX_COUNT_WINDOW_MS,
    COUNT_BROADCAST_MS * Math.max(1, Math.ceil(sockets / SOCKETS_PER_WINDOW)),
  );
}

/**
 * After a change (`matchStarts`: matches this transaction started, recorded with the count,
 * insights/history.ts), this instance's sockets are due the count and so are the other instances'.
 * Each instance sends only its own sockets (toLocal), in its own window and once no queue batch runs
 * there: the others are told with a signal, not sent this instance's count through Redis. With the
 * count fanned out to every instance (toAll), each socket got one frame per instance per window, and
 * the other instance's frames landed in the middle of this one's batches (1,000 sockets: 17-19 ms
 * of the event loop each, bench/RESULTS.md session 27).
 */
async function broadcastCount(ctx: AppContext, tx: Db, after: After, matchStarts = 0): Promise<number> {
  after.add(() => {
    countDue(ctx);
    ctx.realtime.signalInstances('queue.count-due');
  });
  return recordQueueCount(ctx, tx, QUEUE_COUNT_SQL, matchStarts);
}

/** This instance's sockets are due the count: one send per window carries every change in it. */
export function countDue(ctx: AppContext): void {
  if (ctx.state.queue.countDue) return;
  ctx.state.queue.countDue = true;
  setTimeout(() => void sendCount(ctx), countWindowMs(ctx)).unref?.();
}

/**
 * The due count, once no queue batch runs (lib/priority.ts; at most a second later). It is one
 * frame for every socket, and a crowd's accept phases and matches are waiting behind the batches:
 * sent in the middle of 1,000 joins, the fan-out held their PRIVATE_QUEUE_READY (issue 20 target 4,
 * bench/RESULTS.md session 21). A player who joins reads the count in their own ack meanwhile.
 */
async function sendCount(ctx: AppContext): Promise<void> {
  await ctx.priority.calm();
  // Changes from here on are in the count read below, or make the next one due.
  ctx.state.queue.countDue = false;
  try {
    ctx.realtime.toLocal('PUBLIC_QUEUE_UPDATE', { count: await queueCount(ctx.db) });
  } catch (err) {
    logOf(ctx).error({ err }, 'queue count broadcast failed');
  }
}

async function phasePlayers(tx: Db, playerIds: string[], phaseId: string): Promise<QueuePlayer[]> {
  const entries = await tx
    .select({ userId: queueEntries.userId, accepted: queueEntries.accepted })
    .from(queueEntries)
    .where(eq(queueEntries.phaseId, phaseId));
  const accepted = new Set(entries.filter((e) => e.accepted).map((e) => e.userId));
  const { players } = await phasesPlayers(tx, [{ id: phaseId, playerIds }], accepted);
  return players.get(phaseId) ?? [];
}

/**
 * The players of several accept phases (who of them accepted is `accepted`), with one read of
 * the users not in `known` (none when all are). Returns the cards and every user row it used.
 */
async function phasesPlayers(
  tx: Db,
  phases: readonly { id: string; playerIds: string[] }[],
  accepted: ReadonlySet<string>,
  known: ReadonlyMap<string, UserRow> = new Map(),
): Promise<{ players: Map<string, QueuePlayer[]>; users: Map<string, UserRow> }> {
  const byId = new Map(known);
  const missing = phases.flatMap((p) => p.playerIds).filter((id) => !byId.has(id));
  for (const u of await findUsersByIds(tx, [...new Set(missing)])) byId.set(u.id, u);
  const players = new Map<string, QueuePlayer[]>();
  for (const phase of phases)
    players.set(
      phase.id,
      phase.playerIds.map((id) => ({
        userId: id,
        name: byId.get(id)?.name ?? '',
        avatar: byId.get(id)?.avatar ?? null,
        accepted: accepted.has(id),
      })),
    );
  return { players, users: byId };
}

/**
 * Starts accept phases for the first free ten in queue order, as long as ten are free. `known`:
 * user rows the caller has read already (the batch's joiners), not read again.
 */
async function formPhases(
  ctx: AppContext,
  tx: Db,
  after: After,
  known?: ReadonlyMap<string, UserRow>,
): Promise<void> {
  await startPhases(ctx, tx, after, await freeInQueueOrder(tx), known);
}

/** The queued players in no accept phase, in queue order. */
async function freeInQueueOrder(tx: Db): Promise<string[]> {
  const free = await tx
    .select({ userId: queueEntries.userId })
    .from(queueEntries)
    .where(isNull(queueEntries.phaseId))
    .orderBy(asc(queueEntries.seq));
  return free.map((f) => f.userId);
}

/** `formPhases` once the free players (`free`, in queue order) are known. */
async function startPhases(
  ctx: AppContext,
  tx: Db,
  after: After,
  free: readonly string[],
  known?: ReadonlyMap<string, UserRow>,
): Promise<void> {
  if (free.length < PLAYERS_PER_MATCH) return;
  const now = ctx.clock.now();
  const deadline = now + ctx.config.ACCEPT_TIMEOUT_MS;
  const formed = Array.from({ length: Math.floor(free.length / PLAYERS_PER_MATCH) }, (_, i) => ({
    id: randomUUID(),
    playerIds: free.slice(i * PLAYERS_PER_MATCH, (i + 1) * PLAYERS_PER_MATCH),
  }));
  // Every formed phase's ten in one update and their deadlines in one insert, however many.
  const phaseOf = sql.join(
    formed.flatMap(({ id, playerIds }) => playerIds.map((uid) => sql`WHEN ${uid} THEN ${id}`)),
    sql` `,
  );
  // Sent together: they do not depend on each other (sentTogether).
  const [, , , { players: playersOf }] = await sentTogether(
    tx.insert(acceptPhases).values(
      formed.map(({ id, playerIds }): typeof acceptPhases.$inferInsert => ({
        id,
        createdAt: now,
        deadline,
        playerIds,
        status: ACCEPT_PHASE_INITIAL,
      })),
    ),
    tx
      .update(queueEntries)
      .set({ phaseId: sql`CASE ${queueEntries.userId} ${phaseOf} END`, accepted: false })
      .where(
        inArray(
          queueEntries.userId,
          formed.flatMap((f) => f.playerIds),
        ),
      ),
    ctx.jobs.scheduleMany(
      tx,
      after,
      acceptJob,
      formed.map(({ id }) => ({ payload: { phaseId: id }, dueAt: deadline })),
    ),
    // A new phase's players have all not accepted yet (set in the update).
    phasesPlayers(tx, formed, new Set(), known),
  );
  for (const { id, playerIds } of formed) {
    const payload: QueueReadyPayload = { players: playersOf.get(id) ?? [], deadline };
    after.add(() => {
      ctx.realtime.toUsers(playerIds, 'PRIVATE_QUEUE_READY', payload);
    });
  }
  for (const { id, playerIds } of formed)
    after.add(() => void ctx.bus.emit('queue.phaseStarted', { phaseId: id, playerIds, deadline }));
}

type Answer = { inQueue: boolean; count: number } | AppError;

/**
 * Requests that wait together for the next queue transaction (group commit). One queue means
 * one lock: taken once per request, 1,000 players joining within a second queued up behind it
 * one transaction at a time (issue 20). Now the requests that arrive while a transaction of
 * their kind runs go together into the next one, which answers each of them on its own (a
 * refusal is that request's alone).
 *
 * The next transaction opens as soon as a request waits, and takes its lock while the one before
 * still runs: its BEGIN and its lock statement are behind it when that one commits, and it takes
 * every request that came meanwhile (the ones waiting when the lock is granted). Two round trips
 * fewer between one batch's commit and the next one's first write, which is what each player in
 * a crowd waits for (issue 20 target 4). The answers go out once the effects after the commit
 * have run (the events sent, the status writes started, not awaited: patchQueue); the next
 * transaction does not wait for those effects.
 */
class Together<I> {
  private waiting: {
    input: I;
    resolve: (a: { inQueue: boolean; count: number }) => void;
    reject: (e: unknown) => void;
  }[] = [];
  /** A transaction is open and waiting for the lock; requests that arrive now are its. */
  private opening = false;
  /** Transactions under way (at most two: one with the lock, one waiting for it). */
  private active = 0;
  constructor(
    private readonly ctx: AppContext,
    private readonly lock: (tx: Db) => Promise<void>,
    private readonly run: (tx: Db, after: After, inputs: I[], commitWith: CommitWith) => Promise<Answer[]>,
  ) {}

  add(input: I): Promise<{ inQueue: boolean; count: number }> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ input, resolve, reject });
      if (!this.opening) this.open();
    });
  }

  private open(): void {
    // Urgent from the first request waiting until no transaction of this kind is left: work that
    // can wait (notifications, chat room joins) waits meanwhile (lib/priority.ts).
    if (this.active === 0) this.ctx.priority.urgentBegins();
    this.opening = true;
    this.active++;
    // The socket events read in the same turn of the event loop are waiting before it begins.
    setImmediate(() => void this.drain());
  }

  /** The waiting requests, now this transaction's; a request from now on opens the next one. */
  private take() {
    this.opening = false;
    return this.waiting.splice(0);
  }

  private async drain(): Promise<void> {
    let batch: typeof this.waiting | null = null;
    const after = new After();
    let answers: Answer[] | null = null;
    let failure: unknown = null;
    try {
      answers = await pipelinedTransaction(this.ctx.database, async (tx, commitWith) => {
        await this.lock(tx);
        batch = this.take();
        return this.run(
          tx,
          after,
          batch.map((b) => b.input),
          commitWith,
        );
      });
    } catch (err) {
      failure = err;
    }
    // Failed before the lock: the waiting requests were to be this transaction's.
    const taken = batch ?? this.take();
    if (--this.active === 0) this.ctx.priority.urgentEnds();
    if (!answers) {
      // The whole transaction failed (not a refusal): each request alone, so one cannot fail another.
      if (taken.length === 1) return taken[0].reject(failure);
      for (const b of taken)
        inTransaction(
          this.ctx.db,
          async (tx, a) => {
            await this.lock(tx);
            return this.run(tx, a, [b.input], sentTogether);
          },
          logOf(this.ctx),
        ).then(([a]) => (a instanceof AppError ? b.reject(a) : b.resolve(a)), b.reject);
      return;
    }
    await after.run(logOf(this.ctx));
    taken.forEach((b, i) => {
      const a = (answers as Answer[])[i];
      if (a instanceof AppError) b.reject(a);
      else b.resolve(a);
    });
  }
}

/** A join waiting for its batch. */
interface JoinRequest {
  userId: string;
  via: QueueVia;
}

interface QueueBatches {
  joins: Together<JoinRequest>;
  readies: Together<string>;
}
function batchesOf(ctx: AppContext): QueueBatches {
  ctx.state.queue.batches ??= {
    joins: new Together(
      ctx,
      (tx) => takeAdvisoryLocks(ctx.database, tx, ENTRY_LOCK_SQL),
      (tx, after, joins, commitWith) => joinTogether(ctx, tx, after, joins, commitWith),
    ),
    readies: new Together(
      ctx,
      (tx) => takeAdvisoryLocks(ctx.database, tx, PHASE_LOCK_SQL),
      (tx, after, ids, commitWith) => readyTogether(ctx, tx, after, ids, commitWith),
    ),
  };
  return ctx.state.queue.batches;
}

/**
 * The players' `inQueue` after the commit, all at once (presence writes the same patch for many
 * users in one statement). The answer does not wait for the write (After.background): the
 * players' own tabs and their friends hear it when it is written. Behind an instance's other
 * patches it had made the effects after a batch's commit take p99 27–152 ms in the two-instance
 * bench (issue 20 target 5, bench/RESULTS.md session 27).
 */
function patchQueue(ctx: AppContext, after: After, userIds: readonly string[], inQueue: boolean) {
  after.background(() =>
    Promise.all(userIds.map((userId) => ctx.bus.emit('status.patch', { userId, patch: { inQueue } }))),
  );
}

export function joinQueue(
  ctx: AppContext,
  userId: string,
  via: QueueVia = 'web',
): Promise<{ inQueue: boolean; count: number }> {
  return batchesOf(ctx).joins.add({ userId, via });
}

/**
 * Why this player may not join, from their row, or null. In order: no such user, no voice link,
 * no name, no Steam link (MatchZy only: real CS2 servers admit the rostered players by SteamID64).
 * A ban, a cooldown and a live match are read with the insert (joinTogether).
 */
function joinRefusal(ctx: AppContext, user: UserRow | undefined): AppError | null {
  if (!user) return notFound('USER_DOES_NOT_EXIST');
  if (!user.teamSpeakId) return conflict('VOICE_NOT_LINKED');
  if (!user.name?.trim()) return badRequest('NAME_REQUIRED');
  if (ctx.config.GAME_SERVER_PROVIDER === 'matchzy' && !user.steamId) return conflict('STEAM_NOT_LINKED');
  return null;
}

/** A check's refusal, in precedence order: a ban, then a cooldown, then a live match. */
const CHECK_REFUSALS = [
  ['ban', () => forbidden('BANNED')],
  ['cooldown', () => forbidden('QUEUE_COOLDOWN')],
  ['match', () => conflict('ALREADY_IN_MATCH')],
] as const;

type JoinCheck = { userId: string; check: string };

/**
 * The joiners' ban, cooldown and live-match checks in one statement, sent after the insert and
 * under the entry lock. After the insert: an accept batch (under the phase lock, not ours) that
 * started a player's match had to commit before the insert could replace their entry, so this
 * read, a statement of its own on the same connection, sees that match. Under the lock: a ban
 * takes the entry lock to take its player out of the queue (one written before is seen here, one
 * written after finds the entry and removes it), a miss's cooldown is written under it, and a
 * leaver's is written while they are still rostered in a live match, which this read sees until
 * the cooldown is there.
 */
async function joinChecks(ctx: AppContext, tx: Db, ids: readonly string[]): Promise<JoinCheck[]> {
  if (ids.length === 0) return [];
  return unionAll(banChecks(ctx, tx, ids), cooldownChecks(ctx, tx, ids), liveMatchChecks(tx, ids));
}

/** A joiner's first refusal among `checks`; a live match counts only for a place just inserted. */
function checkRefusal(checks: readonly JoinCheck[], id: string, inserted: boolean): AppError | null {
  for (const [check, refusal] of CHECK_REFUSALS) {
    if (check === 'match' && !inserted) continue;
    if (checks.some((r) => r.userId === id && r.check === check)) return refusal();
  }
  return null;
}

/**
 * The joins that waited together, in one transaction under the entry lock: one insert, the checks
 * read once for all of them, one round of phase forming, one count. A join refused here is
 * refused alone; the others go on.
 *
 * Every new place is inserted before anyone is checked, and the joiners' rows, the checks and the
 * free places go with the insert in one round trip (sentTogether, read after it on the same
 * connection): the refusals only need the answers, and a place the batch inserted for a player it
 * then refuses is taken back (rare: the web offers the queue only to who may join). A join batch
 * is what each of a crowd's accept phases waits for, and on the embedded engine nothing else runs
 * while it is open (issue 20 target 4). The rows used to be read as each join arrived, beside the
 * batch before: one read per turn of the event loop, ~650 in a burst of 1,000 joins, on a server
 * thread that was already busy 93–97 % of it (bench/RESULTS.md, session 24).
 */
async function joinTogether(
  ctx: AppContext,
  tx: Db,
  after: After,
  joins: readonly JoinRequest[],
  commitWith: CommitWith,
): Promise<Answer[]> {
  const ids = [...new Set(joins.map((j) => j.userId))];
  const viaOf = new Map<string, QueueVia>();
  for (const j of joins) if (!viaOf.has(j.userId)) viaOf.set(j.userId, j.via);
  const now = ctx.clock.now();
  // Calls, in this order: the checks and the free places read after the insert (joinChecks).
  const [rows, insertedRows, checks, free] = await sentTogether(
    findUsersByIds(tx, ids),
    executeRows<{ user_id: string }>(
      tx,
      sql`${insertUnnested(
        queueEntries,
        ['userId', 'joinedAt', 'via'],
        ids.map((userId) => ({ userId, joinedAt: now, via: viaOf.get(userId) })),
      )} ON CONFLICT DO NOTHING RETURNING ${queueEntries.userId}`,
    ),
    joinChecks(ctx, tx, ids),
    freeInQueueOrder(tx),
  );
  const userOf = new Map(rows.map((row) => [row.id, row]));
  const inserted = new Set(insertedRows.map((r) => r.user_id));
  // In order: the player's row (joinRefusal), a ban, a cooldown, and for a place this batch
  // inserted a live match (else: already queued).
  const refused = new Map<string, AppError>();
  for (const id of ids) {
    const refusal = joinRefusal(ctx, userOf.get(id)) ?? checkRefusal(checks, id, inserted.has(id));
    if (refusal) refused.set(id, refusal);
  }
  const takenBack = [...refused.keys()].filter((id) => inserted.has(id));
  if (takenBack.length > 0) await tx.delete(queueEntries).where(inArray(queueEntries.userId, takenBack));
  for (const id of takenBack) inserted.delete(id);
  let count = 0;
  if (inserted.size > 0) {
    // The new phases and the count (after the delete above) do not depend on each other; the
    // COMMIT goes with them (db/pipelined.ts).
    [, count] = await commitWith(
      startPhases(
        ctx,
        tx,
        after,
        free.filter((id) => !refused.has(id)),
        userOf,
      ),
      broadcastCount(ctx, tx, after),
    );
    patchQueue(ctx, after, [...inserted], true);
  }
  const answered = new Set<string>();
  return joins.map((j) => {
    const refusal = refused.get(j.userId);
    if (refusal) return refusal;
    if (!inserted.has(j.userId) || answered.has(j.userId)) return conflict('ALREADY_IN_QUEUE');
    answered.add(j.userId);
    return { inQueue: true, count };
  });
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
      await lockQueue(ctx, tx);
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
        ctx.realtime.toUsers(rest, 'PRIVATE_QUEUE_READY_UPDATE', { players });
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
  await lockQueue(ctx, tx);
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
export function readyQueue(ctx: AppContext, userId: string): Promise<{ inQueue: boolean; count: number }> {
  return batchesOf(ctx).readies.add(userId);
}

/** Each phase's new status and match, in one statement however many phases end together. */
async function setPhasesEnded(
  tx: Db,
  ended: readonly { id: string; status: (typeof acceptPhases.$inferSelect)['status']; matchId: string }[],
) {
  // One update per status, all started at once (its caller sends the COMMIT with them).
  await Promise.all(
    [...new Set(ended.map((e) => e.status))].map((status) => {
      const rows = ended.filter((e) => e.status === status);
      const matchIdOf = sql.join(
        rows.map((r) => sql`WHEN ${r.id} THEN ${r.matchId}`),
        sql` `,
      );
      return tx
        .update(acceptPhases)
        .set({ status, matchId: sql`CASE ${acceptPhases.id} ${matchIdOf} END` })
        .where(
          inArray(
            acceptPhases.id,
            rows.map((r) => r.id),
          ),
        );
    }),
  );
}

/**
 * The accepts that waited together, in one transaction under the phase lock: the entries and
 * phases are read once, the accepts written in one update, and every phase they complete becomes
 * its match here. PRIVATE_MATCH_START goes out right after the commit, before the status patches
 * (docs/contract.md §4: nothing slow between the last accept and the match start).
 */
async function readyTogether(
  ctx: AppContext,
  tx: Db,
  after: After,
  userIds: readonly string[],
  commitWith: CommitWith,
): Promise<Answer[]> {
  const ids = [...new Set(userIds)];
  const theirPhaseIds = tx
    .select({ phaseId: queueEntries.phaseId })
    .from(queueEntries)
    .where(inArray(queueEntries.userId, ids));
  // The callers' entries with every entry of their phases, and their phases, read together.
  const [entries, phases] = await sentTogether(
    tx
      .select()
      .from(queueEntries)
      .where(or(inArray(queueEntries.userId, ids), inArray(queueEntries.phaseId, theirPhaseIds))),
    tx.select().from(acceptPhases).where(inArray(acceptPhases.id, theirPhaseIds)),
  );
  const entryOf = new Map(entries.map((e) => [e.userId, e]));
  const phaseOf = new Map(phases.map((p) => [p.id, p]));
  const refused = new Map<string, AppError>();
  const accepting = new Set<string>();
  for (const userId of ids) {
    const entry = entryOf.get(userId);
    const phase = entry?.phaseId ? phaseOf.get(entry.phaseId) : undefined;
    if (!entry) refused.set(userId, conflict('NOT_IN_QUEUE'));
    else if (!phase) refused.set(userId, conflict(acceptPhase.refusal));
    else {
      const next = acceptPhase.transition(phase.status, 'accept');
      if (!next.ok) refused.set(userId, conflict(next.key));
      else if (!entry.accepted) accepting.add(userId);
    }
  }
  if (accepting.size === 0) {
    const [count] = await commitWith(queueCount(tx));
    return userIds.map((userId) => refused.get(userId) ?? { inQueue: true, count });
  }
  const touched = [...new Set([...accepting].map((id) => entryOf.get(id)?.phaseId as string))].map(
    (id) => phaseOf.get(id) as (typeof phases)[number],
  );
  const accepted = new Set([...entries.filter((e) => e.accepted).map((e) => e.userId), ...accepting]);
  const complete = touched.filter(
    (phase) =>
      phase.playerIds.length === PLAYERS_PER_MATCH && phase.playerIds.every((id) => accepted.has(id)),
  );
  const ending = complete.map((phase) => ({ phase, done: acceptPhase.require(phase.status, 'complete') }));
  // The accepts, the cards, a completed phase's entries and deadline, and what its match reads,
  // all sent together: none reads what another writes (a completed phase's entries are deleted
  // either way, and the match's reads are of other tables). With no match to write, the COMMIT
  // goes with them (db/pipelined.ts).
  const [, { players: playersOf, users }, , , unchanged, inputs] = await (complete.length > 0
    ? sentTogether
    : commitWith)(
    tx
      .update(queueEntries)
      .set({ accepted: true })
      .where(inArray(queueEntries.userId, [...accepting])),
    phasesPlayers(
      tx,
      touched.map((p) => ({ id: p.id, playerIds: p.playerIds })),
      accepted,
    ),
    complete.length > 0 &&
      tx.delete(queueEntries).where(
        inArray(
          queueEntries.phaseId,
          complete.map((p) => p.id),
        ),
      ),
    ctx.jobs.cancelMany(
      tx,
      after,
      acceptJob,
      ending
        .filter(({ done }) => entails(done, 'cancelDeadline'))
        .map(({ phase }) => ({ phaseId: phase.id })),
    ),
    // No match starts: the accepts leave the count as it is.
    complete.length === 0 ? queueCount(tx) : 0,
    complete.length > 0 &&
      readMatchInputs(
        ctx,
        tx,
        complete.flatMap((p) => p.playerIds),
      ),
  );
  for (const phase of touched) {
    const players = playersOf.get(phase.id) ?? [];
    after.add(() => {
      ctx.realtime.toUsers(
        players.map((p) => p.userId),
        'PRIVATE_QUEUE_READY_UPDATE',
        { players },
      );
    });
  }
  // No phase completed (its match's reads were not sent): nobody's place changes.
  if (!inputs) return userIds.map((userId) => refused.get(userId) ?? { inQueue: true, count: unchanged });
  const planned = planMatches(
    complete.map((p) => p.playerIds),
    users,
  );
  const matchIds = planned.map((m) => m.id);
  // The players hear of their matches first; the status patches follow (writeMatches).
  after.add(() =>
    complete.forEach(({ playerIds }, i) => {
      const matchId = matchIds[i];
      ctx.realtime.toUsers(playerIds, 'PRIVATE_QUEUE_MATCH', { matchId });
      ctx.realtime.toUsers(playerIds, 'PRIVATE_MATCH_START', { matchId });
    }),
  );
  // The matches, the phases' end, the count and the COMMIT in one round trip: the ids are known
  // beforehand.
  const [, , count] = await commitWith(
    writeMatches(ctx, tx, after, planned, users, inputs),
    setPhasesEnded(
      tx,
      ending.map(({ phase, done }, i) => ({ id: phase.id, status: done.to, matchId: matchIds[i] })),
    ),
    broadcastCount(ctx, tx, after, complete.length),
  );
  complete.forEach(({ id: phaseId, playerIds }, i) => {
    const matchId = matchIds[i];
    after.add(() => void ctx.bus.emit('queue.matched', { phaseId, playerIds, matchId }));
    emitPhaseEnded(ctx, after, { phaseId, playerIds, outcome: 'matched', matchId });
  });
  const matched = new Set(complete.flatMap((p) => p.playerIds));
  return userIds.map((userId) => refused.get(userId) ?? { inQueue: !matched.has(userId), count });
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
      await lockQueue(ctx, tx);
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
        ctx.realtime.toUsers(rest, 'PRIVATE_QUEUE_TIMEOUT', { type: 'timeout', unreadyProfiles });
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
  await lockQueue(ctx, tx);
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
    ctx.realtime.toUsers(kicked, 'PRIVATE_QUEUE_KICK', { type: 'kick' });
    ctx.realtime.toUsers(accepted, 'PRIVATE_QUEUE_TIMEOUT', { type: 'timeout', unreadyProfiles });
  });
  patchQueue(ctx, after, kicked, false);
  emitPhaseEnded(ctx, after, { phaseId, playerIds: phase.playerIds, outcome: 'timedout', accepted });
  if (entails(next, 'formPhases')) await formPhases(ctx, tx, after);
  await broadcastCount(ctx, tx, after);
}

/** The caller's queue situation (GET /api/queue and re-sent on reconnect). */
export async function queueState(ctx: AppContext, userId: string): Promise<QueueState> {
  // The four reads as the columns of one statement: one round trip on one pooled connection.
  // Every tab reads this on load; as four statements on four connections they cost a one-minute
  // two-instance bench run 9.5 % more statements (issue 20 target 5, bench/RESULTS.md session 29).
  const [row] = await executeRows<{
    entry: { joinedAt: number; phaseId: string | null } | null;
    count: number;
    match_id: string | null;
    cooldown: Cooldown | null;
  }>(
    ctx.db,
    sql`SELECT
      (SELECT json_build_object('joinedAt', ${queueEntries.joinedAt}, 'phaseId', ${queueEntries.phaseId})
        FROM ${queueEntries} WHERE ${queueEntries.userId} = ${userId}) AS entry,
      (${QUEUE_COUNT_SQL}) AS count,
      (${liveMatchIdQuery(ctx.db, userId)}) AS match_id,
      (SELECT json_build_object('kind', c.kind, 'endsAt', c.ends_at, 'offence', c.offence)
        FROM (${activeCooldownQuery(ctx, ctx.db, userId)}) AS c) AS cooldown`,
  );
  const { entry, count, match_id: matchId, cooldown } = row;
  let phase: QueueReadyPayload | null = null;
  if (entry?.phaseId) {
    const [p] = await ctx.db.select().from(acceptPhases).where(eq(acceptPhases.id, entry.phaseId));
    // Shown while it can still be accepted (open).
    if (p && acceptPhase.transition(p.status, 'accept').ok)
      phase = { players: await phasePlayers(ctx.db, p.playerIds, p.id), deadline: p.deadline };
  }
  return { count, inQueue: !!entry, joinedAt: entry?.joinedAt ?? null, phase, matchId, cooldown };
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

/** queuedAmong in `tx` once the entry lock is held: after any join or leave still committing. */
export async function queuedAmongLocked(
  ctx: AppContext,
  tx: Db,
  userIds: readonly string[],
): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  await takeAdvisoryLocks(ctx.database, tx, ENTRY_LOCK_SQL);
  return queuedAmong(tx, userIds);
}

/**
 * A queued player outside an accept phase leaves the queue to substitute in a match, in the
 * caller's transaction (under both queue locks): no miss. False when they are not queued that way.
 */
export async function takeFromQueue(ctx: AppContext, tx: Db, after: After, userId: string): Promise<boolean> {
  await lockQueue(ctx, tx);
  const cond = and(eq(queueEntries.userId, userId), isNull(queueEntries.phaseId));
  if (!(await removeEntry(ctx, tx, after, userId, cond, false))) return false;
  await broadcastCount(ctx, tx, after);
  return true;
}
