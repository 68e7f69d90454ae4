/**
 * Insights (docs/contract.md §4 "Queue insights", "Draft fairness"): GET /api/queue/eta (the fill
 * estimate for the queue as it is now), GET /api/queue/heatmap?tz= (match starts of the last 28
 * days by weekday and hour in the player's time zone; an unknown zone is 422 TIME_ZONE_INVALID),
 * both for signed-in players, and GET /api/admin/calibration (ADMIN only) — the Brier score and
 * reliability table of the win probability stored at live.
 */
import {
  CALIBRATION_MIN_MATCHES,
  calibrationSchema,
  errorBodySchema,
  HEATMAP_DAYS,
  heatmapQuerySchema,
  queueEtaSchema,
  startsHeatmapSchema,
} from '@openpug/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { requireAdmin, requireAuth } from '../auth';
import { predictedOutcomes } from '../matches';
import { queueCount } from '../queue/service';
import { calibrationOf } from './calibration';
import { DAY_MS, estimateFill } from './eta';
import { startsHeatmap } from './heatmap';
import { HISTORY_RETENTION_MS, historyStart, startsSince } from './history';

const refusals = { 401: errorBodySchema, 403: errorBodySchema };

export function insightsModule(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/queue/eta',
      {
        onRequest: requireAuth,
        schema: {
          tags: ['queue'],
          summary: 'How long the queue usually takes to fill from its count now, at this hour, and the basis',
          security: [{ bearer: [] }],
          response: { 200: queueEtaSchema, ...refusals },
        },
      },
      async () => {
        const now = ctx.clock.now();
        const [start, buckets, count] = await Promise.all([
          historyStart(ctx.db),
          startsSince(ctx.db, now - HISTORY_RETENTION_MS),
          queueCount(ctx.db),
        ]);
        return estimateFill(buckets, start, now, count);
      },
    );

    app.get(
      '/api/queue/heatmap',
      {
        onRequest: requireAuth,
        schema: {
          tags: ['queue'],
          summary: 'Match starts of the last 28 days by weekday and hour in the time zone `tz`',
          security: [{ bearer: [] }],
          querystring: heatmapQuerySchema,
          response: { 200: startsHeatmapSchema, 422: errorBodySchema, ...refusals },
        },
      },
      async (request) => {
        const to = ctx.clock.now();
        const from = to - HEATMAP_DAYS * DAY_MS;
        return startsHeatmap(await startsSince(ctx.db, from), request.query.tz, from, to);
      },
    );

    app.get(
      '/api/admin/calibration',
      {
        onRequest: requireAdmin,
        schema: {
          tags: ['admin'],
          summary: `Admin: Brier score and reliability of the draft's win probability (from ${CALIBRATION_MIN_MATCHES} matches)`,
          security: [{ bearer: [] }],
          response: { 200: calibrationSchema, ...refusals },
        },
      },
      async () => calibrationOf(await predictedOutcomes(ctx.db)),
    );
  };
}
