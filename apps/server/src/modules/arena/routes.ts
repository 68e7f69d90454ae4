/**
 * Arena servers (service.ts): GET /api/arena lists them for signed-in players (name, connect
 * address, online, player count); admins list, add, change and delete them under /api/admin/arena
 * (ADMIN only: 403 UNAUTHORIZED for a USER; a bad `host:port` is 422 ARENA_ADDRESS_INVALID). The
 * RCON password is write-only. The module seeds ARENA_SERVERS on first start and arms the poll.
 */
import {
  adminArenaListSchema,
  adminArenaServerSchema,
  arenaListSchema,
  arenaServerCreateSchema,
  arenaServerUpdateSchema,
  errorBodySchema,
  idParamsSchema,
  isId,
} from '@openpug/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { inTransaction, logOf } from '../../jobs';
import { badRequest } from '../../lib/errors';
import { requireAdmin, requireAuth } from '../auth';
import {
  arenaPollJob,
  createArenaServer,
  deleteArenaServer,
  listArenaServers,
  seedArenaServers,
  toAdminArenaServer,
  toArenaServer,
  updateArenaServer,
} from './service';

const admin = { onRequest: requireAdmin, security: [{ bearer: [] }], tags: ['arena'] };
const refusals = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

const checkId = (id: string) => {
  if (!isId(id)) throw badRequest('ID_MALFORMED');
  return id;
};

export function arenaModule(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    ctx.jobs.register(arenaPollJob);
    app.addHook('onReady', async () => {
      await seedArenaServers(ctx);
      if (ctx.config.ARENA_POLL_MS <= 0) return; // polling off
      // The first poll right after start; every instance moves the same row, one claims it.
      await inTransaction(
        ctx.db,
        (tx, after) => ctx.jobs.reschedule(tx, after, arenaPollJob, {}, ctx.clock.now()),
        logOf(ctx),
      );
    });

    app.get(
      '/api/arena',
      {
        preValidation: requireAuth,
        schema: {
          tags: ['arena'],
          summary: 'Arena (warm-up) servers with their player counts',
          security: [{ bearer: [] }],
          response: { 200: arenaListSchema },
        },
      },
      async () => ({ servers: (await listArenaServers(ctx.db)).map(toArenaServer) }),
    );

    app.get(
      '/api/admin/arena',
      {
        onRequest: admin.onRequest,
        schema: {
          tags: admin.tags,
          summary: 'Admin: arena servers with their RCON addresses',
          security: admin.security,
          response: { 200: adminArenaListSchema },
        },
      },
      async () => ({ servers: (await listArenaServers(ctx.db)).map(toAdminArenaServer) }),
    );

    app.post(
      '/api/admin/arena',
      {
        onRequest: admin.onRequest,
        schema: {
          tags: admin.tags,
          summary: 'Admin: add an arena server',
          security: admin.security,
          body: arenaServerCreateSchema,
          response: { 201: adminArenaServerSchema, ...refusals },
        },
      },
      async (request, reply) => {
        const row = await createArenaServer(ctx, request.body);
        return reply.code(201).send(toAdminArenaServer(row));
      },
    );

    app.patch(
      '/api/admin/arena/:id',
      {
        onRequest: admin.onRequest,
        schema: {
          tags: admin.tags,
          summary: 'Admin: change an arena server (the password only when given)',
          security: admin.security,
          params: idParamsSchema,
          body: arenaServerUpdateSchema,
          response: { 200: adminArenaServerSchema, ...refusals },
        },
      },
      async (request) =>
        toAdminArenaServer(await updateArenaServer(ctx, checkId(request.params.id), request.body)),
    );

    app.delete(
      '/api/admin/arena/:id',
      {
        onRequest: admin.onRequest,
        schema: {
          tags: admin.tags,
          summary: 'Admin: remove an arena server (its players leave the arena)',
          security: admin.security,
          params: idParamsSchema,
          response: {
            200: z.object({ _id: z.string(), msg: z.literal('DELETED_SUCCESSFULLY') }),
            ...refusals,
          },
        },
      },
      async (request) => {
        const id = checkId(request.params.id);
        await deleteArenaServer(ctx, id);
        return { _id: id, msg: 'DELETED_SUCCESSFULLY' as const };
      },
    );
  };
}
