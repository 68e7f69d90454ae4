/**
 * Moderation REST (community safety):
 * - players: GET /api/moderation/me → their running ban and mute (reason, end; null = none);
 * - admins: GET /api/admin/users/:id/sanctions (newest first), POST /api/admin/users/:id/sanctions
 *   {kind, minutes?, reason} (201; minutes absent = permanent), POST /api/admin/sanctions/:id/lift
 *   {reason} (409 SANCTION_NOT_ACTIVE once over), GET /api/admin/audit (filters actor, action,
 *   target, from, to; paged, newest first).
 * Admin calls as a USER are 403 UNAUTHORIZED. The job `moderation.expire` tells a player their
 * timed sanction ended.
 */
import {
  auditPageSchema,
  auditQuerySchema,
  errorBodySchema,
  idSchema,
  moderationStateSchema,
  sanctionCreateSchema,
  sanctionLiftSchema,
  sanctionListSchema,
  sanctionSchema,
} from '@openpug/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { errorResponses } from '../../lib/errors';
import { currentUserId, requireAdmin, requireAuth } from '../auth';
import { listAudit } from './audit';
import { moderationStateOf } from './sanctions';
import { createSanction, expireJob, liftSanction, sanctionsOf } from './service';

const refusals = {
  ...errorResponses(401, 403, 404, 409, 422),
};
const admin = { onRequest: requireAdmin };
const security = [{ bearer: [] }];
const idParams = z.object({ id: idSchema });

export function moderationModule(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    ctx.jobs.register(expireJob);

    app.get(
      '/api/moderation/me',
      {
        onRequest: requireAuth,
        schema: {
          tags: ['moderation'],
          summary: 'The running ban and mute of the signed-in player (reason and end; null = none)',
          security,
          response: { 200: moderationStateSchema, 401: errorBodySchema },
        },
      },
      (request) => moderationStateOf(ctx, ctx.db, currentUserId(request)),
    );

    app.get(
      '/api/admin/users/:id/sanctions',
      {
        ...admin,
        schema: {
          tags: ['admin', 'moderation'],
          summary: "Admin: a player's bans and mutes, active and past, newest first",
          security,
          params: idParams,
          response: { 200: sanctionListSchema, ...refusals },
        },
      },
      (request) => sanctionsOf(ctx, request.params.id),
    );

    app.post(
      '/api/admin/users/:id/sanctions',
      {
        ...admin,
        schema: {
          tags: ['admin', 'moderation'],
          summary:
            'Admin: ban or mute a player for `minutes` (absent = permanently); a ban also takes them out of the queue',
          security,
          params: idParams,
          body: sanctionCreateSchema,
          response: { 201: sanctionSchema, ...refusals },
        },
      },
      async (request, reply) => {
        const sanction = await createSanction(ctx, currentUserId(request), request.params.id, request.body);
        return reply.status(201).send(sanction);
      },
    );

    app.post(
      '/api/admin/sanctions/:id/lift',
      {
        ...admin,
        schema: {
          tags: ['admin', 'moderation'],
          summary: 'Admin: end a running ban or mute early',
          security,
          params: idParams,
          body: sanctionLiftSchema,
          response: { 200: sanctionSchema, ...refusals },
        },
      },
      (request) => liftSanction(ctx, currentUserId(request), request.params.id, request.body.reason),
    );

    app.get(
      '/api/admin/audit',
      {
        ...admin,
        schema: {
          tags: ['admin', 'moderation'],
          summary:
            'Admin: the audit log of admin actions, newest first (filters: actor, action, target, from, to)',
          security,
          querystring: auditQuerySchema,
          response: { 200: auditPageSchema, ...refusals },
        },
      },
      (request) => listAudit(ctx, request.query),
    );
  };
}
