/**
 * Drops REST (docs/contract.md §7) and the drop engine:
 * - admin: GET /api/drops (catalogue, paged), GET /api/drops/awards (awarded drops, paged),
 *   POST /api/drops/ (201 SAVED_SUCCESSFULLY), PATCH /api/drops/:id {redeemed} (an awarded drop;
 *   the only field), DELETE /api/drops/:id (hides a catalogue item; DELETED_SUCCESSFULLY),
 *   GET/PUT /api/drops/engine (on/off, interval), POST /api/drops/engine/roll (dev tools: roll now);
 * - players: GET /api/users/:id/drops (public showcase; owner and admins also see `redeemed`),
 *   POST /api/profile/markDropsAsSeen, GET /api/profile/unlocks.
 * Every admin call as a USER is 403 UNAUTHORIZED (requireAdmin checks the role in the database).
 * Creating, redeeming and deleting write an audit entry in the same transaction (moderation module).
 */
import {
  createDropSchema,
  dropEngineSettingsSchema,
  dropEngineStateSchema,
  dropItemSchema,
  dropItemsPageSchema,
  dropSchema,
  dropsPageSchema,
  dropsQuerySchema,
  idParamsSchema,
  isId,
  listQuerySchema,
  patchDropSchema,
  unlocksSchema,
} from '@openpug/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { badRequest, notFound } from '../../lib/errors';
import { findUserById } from '../accounts/service';
import { currentUserId, requireAdmin, requireAuth } from '../auth';
import {
  createDrop,
  deleteDrop,
  engineState,
  ensureRollScheduled,
  listAwards,
  listCatalogue,
  markDropsAsSeen,
  rollJob,
  rollNow,
  setEngine,
  setRedeemed,
  unlocksOf,
} from './service';

const admin = { onRequest: requireAdmin, security: [{ bearer: [] }] };

function checkId(id: string): string {
  if (!isId(id)) throw badRequest('ID_MALFORMED');
  return id;
}

export function dropsModule(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    ctx.jobs.register(rollJob);
    app.addHook('onReady', () => ensureRollScheduled(ctx));

    app.get(
      '/api/drops',
      {
        onRequest: admin.onRequest,
        schema: {
          tags: ['drops'],
          summary: 'Admin: the drop catalogue (paged; sort createdAt|name|rarity; filter = name)',
          security: admin.security,
          querystring: dropsQuerySchema,
          response: { 200: dropItemsPageSchema },
        },
      },
      (request) => listCatalogue(ctx, request.query),
    );

    app.get(
      '/api/drops/awards',
      {
        onRequest: admin.onRequest,
        schema: {
          tags: ['drops'],
          summary: 'Admin: awarded drops, newest first',
          security: admin.security,
          querystring: listQuerySchema,
          response: { 200: dropsPageSchema },
        },
      },
      (request) => listAwards(ctx, request.query, { withRedeemed: true }),
    );

    app.post(
      '/api/drops/',
      {
        onRequest: admin.onRequest,
        schema: {
          tags: ['drops'],
          summary: 'Admin: add a drop to the catalogue',
          security: admin.security,
          body: createDropSchema,
          response: { 201: dropItemSchema.extend({ msg: z.literal('SAVED_SUCCESSFULLY') }) },
        },
      },
      async (request, reply) => {
        const item = await createDrop(ctx, request.body, currentUserId(request));
        return reply.status(201).send({ ...item, msg: 'SAVED_SUCCESSFULLY' as const });
      },
    );

    app.patch(
      '/api/drops/:id',
      {
        onRequest: admin.onRequest,
        schema: {
          tags: ['drops'],
          summary: 'Admin: mark an awarded drop redeemed (the only changeable field)',
          security: admin.security,
          params: idParamsSchema,
          body: patchDropSchema,
          response: { 200: dropSchema.extend({ msg: z.literal('SAVED_SUCCESSFULLY') }) },
        },
      },
      async (request) => {
        const drop = await setRedeemed(
          ctx,
          checkId(request.params.id),
          request.body.redeemed,
          currentUserId(request),
        );
        if (!drop) throw notFound();
        return { ...drop, msg: 'SAVED_SUCCESSFULLY' as const };
      },
    );

    app.delete(
      '/api/drops/:id',
      {
        onRequest: admin.onRequest,
        schema: {
          tags: ['drops'],
          summary: 'Admin: remove a drop from the catalogue (awarded copies stay)',
          security: admin.security,
          params: idParamsSchema,
          response: { 200: z.object({ _id: z.string(), msg: z.literal('DELETED_SUCCESSFULLY') }) },
        },
      },
      async (request) => {
        const id = checkId(request.params.id);
        if (!(await deleteDrop(ctx, id, currentUserId(request)))) throw notFound();
        return { _id: id, msg: 'DELETED_SUCCESSFULLY' as const };
      },
    );

    app.get(
      '/api/drops/engine',
      {
        onRequest: admin.onRequest,
        schema: {
          tags: ['drops'],
          summary: 'Admin: drop engine state',
          security: admin.security,
          response: { 200: dropEngineStateSchema },
        },
      },
      () => engineState(ctx),
    );

    app.put(
      '/api/drops/engine',
      {
        onRequest: admin.onRequest,
        schema: {
          tags: ['drops'],
          summary: 'Admin: switch the drop engine on/off and set its interval',
          security: admin.security,
          body: dropEngineSettingsSchema,
          response: { 200: dropEngineStateSchema.extend({ msg: z.literal('SAVED_SUCCESSFULLY') }) },
        },
      },
      async (request) => ({ ...(await setEngine(ctx, request.body)), msg: 'SAVED_SUCCESSFULLY' as const }),
    );

    if (ctx.config.DEV_TOOLS) {
      app.post(
        '/api/drops/engine/roll',
        {
          onRequest: admin.onRequest,
          schema: {
            tags: ['drops', 'dev'],
            summary: 'Dev tools, admin: roll now (force ignores the odds)',
            security: admin.security,
            body: z.object({ force: z.boolean().default(false) }).default({ force: false }),
          },
        },
        async (request) => {
          const result = await rollNow(ctx, request.body.force);
          return { outcome: result.outcome, chance: result.chance, award: result.award ?? null };
        },
      );
    }

    app.get(
      '/api/users/:id/drops',
      {
        schema: {
          tags: ['drops'],
          summary: "A player's drops (public showcase; the owner and admins also see redeemed)",
          params: idParamsSchema,
          querystring: listQuerySchema,
          response: { 200: dropsPageSchema },
        },
      },
      async (request) => {
        const id = checkId(request.params.id);
        if (!(await findUserById(ctx.db, id))) throw notFound();
        let withRedeemed = false;
        if (request.userId) {
          if (request.userId === id) withRedeemed = true;
          else withRedeemed = (await findUserById(ctx.db, request.userId))?.role === 'ADMIN';
        }
        return listAwards(ctx, request.query, { ownerId: id, withRedeemed });
      },
    );

    app.post(
      '/api/profile/markDropsAsSeen',
      {
        onRequest: requireAuth,
        schema: {
          tags: ['drops'],
          summary: 'Marks all own drops as seen (unseenDropsCount becomes 0)',
          security: [{ bearer: [] }],
          response: { 200: z.object({ unseenDropsCount: z.literal(0) }) },
        },
      },
      async (request) => {
        await markDropsAsSeen(ctx, currentUserId(request));
        return { unseenDropsCount: 0 as const };
      },
    );

    app.get(
      '/api/profile/unlocks',
      {
        onRequest: requireAuth,
        schema: {
          tags: ['drops'],
          summary: 'Banners and sounds the signed-in player has unlocked',
          security: [{ bearer: [] }],
          response: { 200: unlocksSchema },
        },
      },
      (request) => unlocksOf(ctx, currentUserId(request)),
    );
  };
}
