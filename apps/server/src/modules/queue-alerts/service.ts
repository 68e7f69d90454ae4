/**
 * "Notify me at N/10" (docs/contract.md §4 "Queue alerts"). The queue itself does nothing per
 * player: a count change only books one `queue-alerts.check` job for the next second (several
 * changes within that second share it, by its key), and that job, outside the queue's lock, moves
 * the alerts whose rule flips (rules.ts) with one conditional UPDATE per transition and delivers
 * after commit through the existing channels (socket → desktop notification, Web Push, WhatsApp
 * template, Discord DM). The stored state makes a restart, a retried job or a second instance
 * harmless: only the UPDATE that moves a row from `armed` to `fired` notifies.
 */
import {
  type QueueAlert,
  type QueueAlertBody,
  type QueueAlertChannel,
  type QueueAlertPush,
  queueJoinPath,
} from '@openpug/shared';
import { and, eq, gt, inArray, isNotNull, lte, or } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { type After, defineJob, inTransaction, jobField, logOf } from '../../jobs';
import { conflict, notFound } from '../../lib/errors';
import { findUserById } from '../accounts/service';
import { notifyDiscord } from '../discord/service';
import { inLiveMatchAmong } from '../matches/service';
import { hasPushSubscription, pushToUsers } from '../mobile';
import { notifyTexts } from '../notify';
import { queueCount, queuedAmong } from '../queue/service';
import { notifyWhatsApp, pausedUserIds } from '../whatsapp/service';
import {
  countEvent,
  inQuietHours,
  type QueueAlertEvent,
  type QueueAlertState,
  queueAlertMachine,
} from './rules';
import { queueAlerts } from './schema';

/** Count changes within this window share one check (its end is the job's key and due time). */
export const QUEUE_ALERT_CHECK_MS = 1_000;
/** A queue alert is stale after this long: push services may drop it rather than deliver it late. */
const PUSH_TTL_SECONDS = 120;

/** The check of every alert against the current count (key: the end of its window). */
export const checkJob = defineJob({
  kind: 'queue-alerts.check',
  payload: z.object({ at: jobField.time }),
  handle: (ctx, tx, after) => checkAlerts(ctx, tx, after),
});

/** Books the check for the window that holds now (a no-op when it is booked already). */
export async function requestCheck(ctx: AppContext): Promise<void> {
  const at = (Math.floor(ctx.clock.now() / QUEUE_ALERT_CHECK_MS) + 1) * QUEUE_ALERT_CHECK_MS;
  // Booking the same window again is a no-op in the jobs table; skipping it here saves a
  // transaction per count change (1,000 players queueing at once made 1,000 of them; issue 20).
  if (ctx.state.queueAlerts.bookedAt === at) return;
  await inTransaction(ctx.db, (tx, after) => ctx.jobs.schedule(tx, after, checkJob, { at }, at), logOf(ctx));
  ctx.state.queueAlerts.bookedAt = at;
}

/** The queue-alerts module's per-app state (`ctx.state.queueAlerts`). */
export interface QueueAlertsModuleState {
  /** The last check window this instance booked (committed). */
  bookedAt?: number;
}

type AlertRow = typeof queueAlerts.$inferSelect;

/** Which channels the player can be reached on right now. */
async function availableChannels(ctx: AppContext, userId: string): Promise<QueueAlert['available']> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw notFound('USER_DOES_NOT_EXIST');
  const paused = await pausedUserIds(ctx, [userId]);
  return {
    desktop: true,
    push: await hasPushSubscription(ctx.db, userId),
    whatsapp: Boolean(user.phone && user.whatsAppEnabled && !paused.has(userId)),
    discord: Boolean(user.discordId),
  };
}

function toQueueAlert(row: AlertRow | undefined, available: QueueAlert['available']): QueueAlert {
  return {
    threshold: row?.threshold ?? null,
    channels: row?.channels ?? [],
    quietHours:
      row && row.quietFrom !== null && row.quietTo !== null ? { from: row.quietFrom, to: row.quietTo } : null,
    timeZone: row?.timeZone ?? 'UTC',
    available,
  };
}

const alertOf = async (db: Db, userId: string) =>
  (await db.select().from(queueAlerts).where(eq(queueAlerts.userId, userId)))[0];

export async function getQueueAlert(ctx: AppContext, userId: string): Promise<QueueAlert> {
  return toQueueAlert(await alertOf(ctx.db, userId), await availableChannels(ctx, userId));
}

/**
 * Stores the caller's alert. A channel they have not linked is refused (409). The rule starts
 * from the count as it is now: an alert set at or below the current count waits for the next
 * rise rather than notifying at once.
 */
export async function setQueueAlert(
  ctx: AppContext,
  userId: string,
  body: QueueAlertBody,
): Promise<QueueAlert> {
  const available = await availableChannels(ctx, userId);
  if (body.channels.some((c) => !available[c])) throw conflict('QUEUE_ALERT_CHANNEL_NOT_LINKED');
  const count = await queueCount(ctx.db);
  const state: QueueAlertState = body.threshold !== null && count >= body.threshold ? 'fired' : 'armed';
  const values = {
    threshold: body.threshold,
    channels: body.channels,
    quietFrom: body.quietHours?.from ?? null,
    quietTo: body.quietHours?.to ?? null,
    timeZone: body.timeZone,
    state,
    updatedAt: ctx.clock.now(),
  };
  await ctx.db
    .insert(queueAlerts)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: queueAlerts.userId, set: values });
  return toQueueAlert(await alertOf(ctx.db, userId), available);
}

/** Moves each group of rows from → to with one conditional UPDATE; answers the ids it moved. */
async function applyTransitions(
  ctx: AppContext,
  tx: Db,
  moves: { row: AlertRow; to: QueueAlertState }[],
): Promise<Set<string>> {
  const moved = new Set<string>();
  const groups = new Map<string, { from: QueueAlertState; to: QueueAlertState; ids: string[] }>();
  for (const { row, to } of moves) {
    if (row.state === to) continue;
    const key = `${row.state}>${to}`;
    const group = groups.get(key) ?? { from: row.state, to, ids: [] };
    group.ids.push(row.userId);
    groups.set(key, group);
  }
  for (const { from, to, ids } of groups.values()) {
    const done = await tx
      .update(queueAlerts)
      .set({ state: to, ...(to === 'fired' ? { firedAt: ctx.clock.now() } : {}) })
      .where(and(inArray(queueAlerts.userId, ids), eq(queueAlerts.state, from)))
      .returning({ userId: queueAlerts.userId });
    for (const d of done) moved.add(d.userId);
  }
  return moved;
}

/**
 * Job `queue-alerts.check`: every alert whose rule flips at the current count (armed at or below
 * it, fired above it) takes its transition; the ones that fire with `notify` are told after commit.
 */
export async function checkAlerts(ctx: AppContext, tx: Db, after: After): Promise<void> {
  const count = await queueCount(tx);
  const rows = await tx
    .select()
    .from(queueAlerts)
    .where(
      and(
        isNotNull(queueAlerts.threshold),
        or(
          and(eq(queueAlerts.state, 'armed'), lte(queueAlerts.threshold, count)),
          and(eq(queueAlerts.state, 'fired'), gt(queueAlerts.threshold, count)),
        ),
      ),
    );
  if (rows.length === 0) return;
  const reaching = rows.filter((r) => r.state === 'armed').map((r) => r.userId);
  const queued = await queuedAmong(tx, reaching);
  const playing = await inLiveMatchAmong(tx, reaching);
  const now = ctx.clock.now();
  const outcomes = rows.map((row) => {
    const quietHours =
      row.quietFrom !== null && row.quietTo !== null ? { from: row.quietFrom, to: row.quietTo } : null;
    const event = countEvent(count, row.threshold as number, {
      busy: queued.has(row.userId) || playing.has(row.userId),
      quiet: inQuietHours(now, quietHours, row.timeZone),
    });
    return { row, next: queueAlertMachine.require(row.state, event) };
  });
  const moved = await applyTransitions(
    ctx,
    tx,
    outcomes.map(({ row, next }) => ({ row, to: next.to })),
  );
  const told = outcomes.filter(({ row, next }) => moved.has(row.userId) && next.effects.includes('notify'));
  if (told.length > 0)
    after.add(() =>
      deliver(
        ctx,
        told.map(({ row }) => row),
        count,
      ),
    );
}

/** Every alert takes `event` regardless of the count (the queue popped into a match). */
export async function everyAlertTakes(ctx: AppContext, event: QueueAlertEvent): Promise<void> {
  await inTransaction(
    ctx.db,
    async (tx) => {
      for (const state of ['armed', 'fired'] as const) {
        const { to } = queueAlertMachine.require(state, event);
        if (to === state) continue;
        await tx.update(queueAlerts).set({ state: to }).where(eq(queueAlerts.state, state));
      }
    },
    logOf(ctx),
  );
}

/** The players of `rows` who chose `channel`. */
const choosing = (rows: readonly AlertRow[], channel: QueueAlertChannel) =>
  rows.filter((r) => r.channels.includes(channel)).map((r) => r.userId);

/** Tells each player on the channels they chose (background; notify/deliver.ts retries). */
async function deliver(ctx: AppContext, rows: readonly AlertRow[], count: number): Promise<void> {
  for (const row of rows)
    if (row.channels.includes('desktop'))
      ctx.realtime.toUser(row.userId, 'PRIVATE_QUEUE_ALERT', { count, threshold: row.threshold as number });
  const phoneLink = `${ctx.config.PUBLIC_URL}${queueJoinPath('/m')}`;
  pushToUsers(
    ctx,
    choosing(rows, 'push'),
    (locale): QueueAlertPush => {
      const t = notifyTexts(locale);
      return {
        type: 'queue-alert',
        title: t.queueAlertTitle(count),
        body: t.queueAlertBody,
        url: queueJoinPath('/m'),
        count,
      };
    },
    PUSH_TTL_SECONDS,
  );
  // Template queue_alert: {{1}} = the count, {{2}} = the link that joins from the phone app.
  notifyWhatsApp(ctx, choosing(rows, 'whatsapp'), 'queue_alert', (l) => ({
    params: [String(count), phoneLink],
    text: notifyTexts(l).queueAlert(count, phoneLink),
  }));
  const webLink = `${ctx.config.PUBLIC_URL}${queueJoinPath('/home')}`;
  notifyDiscord(ctx, choosing(rows, 'discord'), (l) => notifyTexts(l).queueAlert(count, webLink));
}
