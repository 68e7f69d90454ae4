/**
 * Reports REST (community safety):
 * - players: POST /api/reports {reportedId, category, text?, matchId?} (201; CANNOT_REPORT_YOURSELF,
 *   USER_DOES_NOT_EXIST, REPORT_MATCH_NOT_SHARED, 429 TOO_MANY_REQUESTS), GET /api/reports/mine →
 *   their reports with the outcome (action taken / no action) and the warnings they received;
 * - admins: GET /api/admin/reports (open first; status filter, paged) with both players' context,
 *   POST /api/admin/reports/:id/resolve {action, note, message?, minutes?} (409
 *   REPORT_ALREADY_RESOLVED). Admin calls as a USER are 403 UNAUTHORIZED.
 */
import {
  adminReportPageSchema,
  adminReportQuerySchema,
  adminReportSchema,
  errorBodySchema,
  idSchema,
  myReportSchema,
  myReportsSchema,
  reportCreateSchema,
  reportResolveSchema,
} from '@openpug/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { errorResponses } from '../../lib/errors';
import { currentUserId, requireAdmin, requireAuth } from '../auth';
import { createReport, listReports, myReports, resolveReport } from './service';

const refusals = {
  ...errorResponses(400, 401, 403, 404, 409, 422, 429),
};
const security = [{ bearer: [] }];

export function reportsModule(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/reports',
      {
        onRequest: requireAuth,
        schema: {
          tags: ['reports'],
          summary: 'Report another player (category, text, optionally a match both played in)',
          security,
          body: reportCreateSchema,
          response: { 201: myReportSchema, ...refusals },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createReport(ctx, currentUserId(request), request.body)),
    );

    app.get(
      '/api/reports/mine',
      {
        onRequest: requireAuth,
        schema: {
          tags: ['reports'],
          summary: "The caller's reports with their outcome, and the warnings the caller received",
          security,
          response: { 200: myReportsSchema, 401: errorBodySchema },
        },
      },
      (request) => myReports(ctx, currentUserId(request)),
    );

    app.get(
      '/api/admin/reports',
      {
        onRequest: requireAdmin,
        schema: {
          tags: ['admin', 'reports'],
          summary: "Admin: the reports queue, open first, with both players' context",
          security,
          querystring: adminReportQuerySchema,
          response: { 200: adminReportPageSchema, ...refusals },
        },
      },
      (request) => listReports(ctx, request.query),
    );

    app.post(
      '/api/admin/reports/:id/resolve',
      {
        onRequest: requireAdmin,
        schema: {
          tags: ['admin', 'reports'],
          summary: 'Admin: resolve a report (dismiss, warn, mute, ban) with a note; audited',
          security,
          params: z.object({ id: idSchema }),
          body: reportResolveSchema,
          response: { 200: adminReportSchema, ...refusals },
        },
      },
      (request) => resolveReport(ctx, currentUserId(request), request.params.id, request.body),
    );
  };
}
