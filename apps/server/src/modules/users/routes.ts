/**
 * Users module: the player directory (`GET /api/users`, logged in) and the public user card
 * (`GET /api/users/:id`, no login needed). See service.ts.
 */
import { idParamsSchema, isId, userCardSchema, usersPageSchema, usersQuerySchema } from '@openpug/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { badRequest, notFound } from '../../lib/errors';
import { findUserById } from '../accounts/service';
import { currentUserId, requireAuth } from '../auth/guard';
import { reliabilityOf } from '../matches/reliability';
import { recentResults } from '../matches/stats';
import { directory, userCard } from './service';

export function usersRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/users',
      {
        onRequest: requireAuth,
        schema: {
          tags: ['users'],
          summary: 'Player directory: paged, sorted by name|elo|createdAt, filter = name substring',
          security: [{ bearer: [] }],
          querystring: usersQuerySchema,
          response: { 200: usersPageSchema },
        },
      },
      async (request) => {
        const viewer = await findUserById(ctx.db, currentUserId(request));
        return directory(ctx, request.query, viewer?.role === 'ADMIN');
      },
    );

    app.get(
      '/api/users/:id',
      {
        schema: {
          tags: ['users'],
          summary: 'Public user card: name, avatar, Steam link, Elo, rank, status, recent results',
          params: idParamsSchema,
          response: { 200: userCardSchema },
        },
      },
      async (request) => {
        if (!isId(request.params.id)) throw badRequest('ID_MALFORMED');
        const card = await userCard(
          ctx,
          request.params.id,
          recentResults,
          async (c, id) => (await reliabilityOf(c.db, [id])).get(id) ?? null,
        );
        if (!card) throw notFound();
        return card;
      },
    );
  };
}
