/**
 * "Notify me at N/10" (docs/contract.md §4 "Queue alerts"):
 *   GET /api/profile/queue-alert          → the caller's alert and the channels they can use
 *   PUT /api/profile/queue-alert {threshold, channels, quietHours, timeZone} → the same
 *       (422 with the field's key; 409 QUEUE_ALERT_CHANNEL_NOT_LINKED)
 * Only the caller's own alert is read or written; no route takes another player's id.
 * Count changes (status.patch with inQueue, queue.matched) book the `queue-alerts.check` job;
 * a burst of them in one tick books it once.
 */
import { errorBodySchema, queueAlertBodySchema, queueAlertSchema } from '@openpug/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { logOf } from '../../jobs';
import { currentUserId, requireAuth } from '../auth';
import { checkJob, everyAlertTakes, getQueueAlert, requestCheck, setQueueAlert } from './service';

/**
 * Books the check once per burst of count changes in this process (the job's key does the rest),
 * once the queue has stopped writing (lib/priority.ts).
 */
function checkSoon(ctx: AppContext, pending: { timer: NodeJS.Timeout | null }): void {
  if (pending.timer) return;
  pending.timer = setTimeout(() => {
    ctx.priority
      .deferrable(() => {
        pending.timer = null;
        return requestCheck(ctx);
      })
      .catch((err) => logOf(ctx).error({ err }, 'queue alert check not booked'));
  }, 0);
  pending.timer.unref?.();
}

/**
 * Every alert takes 'popped' once for the matches that start in the same turn of the event loop
 * (a burst of phases completing together is one update, not one each); a match after the update
 * has begun gets an update of its own.
 */
function poppedSoon(ctx: AppContext, popping: { next: Promise<void> | null }): Promise<void> {
  popping.next ??= new Promise<void>((resolve) => setImmediate(resolve))
    .then(() => ctx.priority.calm())
    .then(() => {
      popping.next = null;
      return everyAlertTakes(ctx, 'popped');
    });
  return popping.next;
}

export function queueAlertsModule(ctx: AppContext): FastifyPluginAsyncZod {
  const pending: { timer: NodeJS.Timeout | null } = { timer: null };
  const popping: { next: Promise<void> | null } = { next: null };
  ctx.jobs.register(checkJob);
  // Every change of the queue count patches someone's inQueue (join, leave, kick, decline, ban,
  // substitute) or matches ten; both happen after commit, off the queue's lock.
  ctx.bus.on('status.patch', ({ patch }) => {
    if (typeof patch.inQueue === 'boolean') checkSoon(ctx, pending);
  });
  ctx.bus.on('queue.matched', async () => {
    await poppedSoon(ctx, popping);
    checkSoon(ctx, pending);
  });

  return async (app) => {
    // A crash between a count change and its booking loses no rise: check once at start-up.
    app.addHook('onReady', () => requestCheck(ctx));
    app.addHook('onClose', async () => {
      if (pending.timer) clearTimeout(pending.timer);
    });

    const schema = {
      tags: ['profile'],
      security: [{ bearer: [] }],
      response: { 200: queueAlertSchema, 401: errorBodySchema },
    };
    app.get(
      '/api/profile/queue-alert',
      {
        onRequest: requireAuth,
        schema: { ...schema, summary: "The caller's queue alert ('notify me at N/10')" },
      },
      (request) => getQueueAlert(ctx, currentUserId(request)),
    );
    app.put(
      '/api/profile/queue-alert',
      {
        preValidation: requireAuth,
        schema: {
          ...schema,
          summary: "Sets the caller's queue alert: threshold (1–9, null = off), channels, quiet hours",
          body: queueAlertBodySchema,
          response: { ...schema.response, 409: errorBodySchema, 422: errorBodySchema },
        },
      },
      (request) => setQueueAlert(ctx, currentUserId(request), request.body),
    );
  };
}
