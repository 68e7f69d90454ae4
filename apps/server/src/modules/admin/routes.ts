/**
 * Admin area calls beyond drops: PATCH /api/users/:id/role {role}; POST /api/admin/matches/:id/cancel
 * ends a stuck match (answers the match state); GET /api/admin/users/:id/cooldowns lists a player's
 * queue cooldowns and POST …/cooldowns/lift lifts the running ones. ADMIN only (403 UNAUTHORIZED for a USER); the last
 * admin cannot demote themselves (409 LAST_ADMIN); a match that is over cannot be cancelled (409
 * WRONG_MATCH_PHASE). The users list is the users module's GET /api/users (admins get e-mail, role
 * and verified). Each action writes an audit entry (modules/moderation/audit.ts) right after it:
 * these services write on their own transaction, so the entry cannot share it.
 *
 * Match tools (match-tools.ts; each with a reason, audited in its own transaction, answering the
 * match state): POST /api/admin/matches/:id/move, …/swap {out, in}, …/result {winner, score},
 * …/correct {winner, score, map}, …/void.
 */
import {
  adminMatchCorrectSchema,
  adminMatchMoveSchema,
  adminMatchResultSchema,
  adminMatchSwapSchema,
  adminMatchVoidSchema,
  cooldownLiftResponseSchema,
  cooldownListSchema,
  directoryUserSchema,
  errorBodySchema,
  idParamsSchema,
  idSchema,
  isId,
  matchStateSchema,
  roleChangeSchema,
} from '@openpug/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { badRequest, conflict, errorResponses, notFound } from '../../lib/errors';
import { findUserById, findUserIdsByRole, updateUser } from '../accounts/service';
import { currentUserId, requireAdmin } from '../auth';
import { cancelMatchByAdmin, getMatchState } from '../matches/service';
import { recordAudit } from '../moderation';
import { activeCooldown, cooldownHistory, liftCooldowns } from '../queue';
import { correctMatch, forceMatchResult, moveMatch, swapMatchPlayer, voidMatch } from './match-tools';

/** The answers every admin route about a player may give besides its own. */
const refusals = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const userParams = z.object({ id: idSchema });

export function adminModule(ctx: AppContext): FastifyPluginAsyncZod {
  const userOr404 = async (id: string) => {
    const target = await findUserById(ctx.db, id);
    if (!target) throw notFound();
    return target;
  };
  return async (app) => {
    app.patch(
      '/api/users/:id/role',
      {
        onRequest: requireAdmin,
        schema: {
          tags: ['admin'],
          summary: "Admin: change a user's role",
          security: [{ bearer: [] }],
          params: idParamsSchema,
          body: roleChangeSchema,
          response: {
            200: directoryUserSchema
              .pick({ _id: true, role: true })
              .extend({ msg: z.literal('SAVED_SUCCESSFULLY') }),
          },
        },
      },
      async (request) => {
        const { id } = request.params;
        if (!isId(id)) throw badRequest('ID_MALFORMED');
        const target = await findUserById(ctx.db, id);
        if (!target) throw notFound();
        const { role } = request.body;
        if (target.role === 'ADMIN' && role === 'USER') {
          const admins = await findUserIdsByRole(ctx.db, 'ADMIN');
          if (admins.length <= 1) throw conflict('LAST_ADMIN');
        }
        // An admin's decision: ADMIN_EMAILS never overrides it afterwards.
        await updateUser(ctx, id, { role, roleDecided: true });
        // updateUser writes outside any transaction of ours: the entry follows the change.
        await recordAudit(ctx, ctx.db, {
          actorId: currentUserId(request),
          action: 'user.role',
          targetType: 'user',
          targetId: id,
          before: { role: target.role },
          after: { role },
        });
        return { _id: id, role, msg: 'SAVED_SUCCESSFULLY' as const };
      },
    );

    app.post(
      '/api/admin/matches/:id/cancel',
      {
        onRequest: requireAdmin,
        schema: {
          tags: ['admin'],
          summary: 'Admin: cancel a match that is not over (ADMIN_CANCELLED); its server is freed',
          security: [{ bearer: [] }],
          params: z.object({ id: idSchema }),
          response: {
            200: matchStateSchema,
            ...errorResponses(401, 403, 404, 409, 422),
          },
        },
      },
      async (request) => {
        const { id } = request.params;
        const adminId = currentUserId(request);
        const before = await getMatchState(ctx, id, adminId);
        await cancelMatchByAdmin(ctx, id);
        request.log.info({ matchId: id, adminId }, 'match cancelled by an admin');
        const state = await getMatchState(ctx, id, adminId);
        await recordAudit(ctx, ctx.db, {
          actorId: adminId,
          action: 'match.cancel',
          targetType: 'match',
          targetId: id,
          before: { status: before.status },
          after: { status: state.status, reason: 'ADMIN_CANCELLED' },
        });
        return state;
      },
    );

    // ---- match tools (match-tools.ts) ----
    const matchToolResponses = {
      200: matchStateSchema,
      ...errorResponses(400, 401, 403, 404, 409, 422),
    };
    const matchTool = <B extends z.ZodType<{ reason: string }>>(
      path: string,
      summary: string,
      body: B,
      run: (matchId: string, adminId: string, body: z.infer<B>) => Promise<unknown>,
    ) =>
      app.post(
        `/api/admin/matches/:id/${path}`,
        {
          onRequest: requireAdmin,
          schema: {
            tags: ['admin'],
            summary,
            security: [{ bearer: [] }],
            params: z.object({ id: idSchema }),
            body,
            response: matchToolResponses,
          },
        },
        async (request) => {
          const { id } = request.params;
          const adminId = currentUserId(request);
          await run(id, adminId, request.body as z.infer<B>);
          request.log.info({ matchId: id, adminId, tool: path }, 'admin match tool');
          return getMatchState(ctx, id, adminId);
        },
      );
    matchTool(
      'move',
      'Admin: restart an active match on another game server',
      adminMatchMoveSchema,
      (id, adminId, b) => moveMatch(ctx, id, adminId, b.reason),
    );
    matchTool(
      'swap',
      "Admin: one player takes another's place in a match that is not over",
      adminMatchSwapSchema,
      (id, adminId, b) => swapMatchPlayer(ctx, id, b.out, b.in, adminId, b.reason),
    );
    matchTool(
      'result',
      'Admin: set the result of an active match whose server died (Elo as a normal finish)',
      adminMatchResultSchema,
      (id, adminId, b) => forceMatchResult(ctx, id, adminId, b),
    );
    matchTool(
      'correct',
      "Admin: correct a finished match's winner, score and map (every affected Elo recomputed)",
      adminMatchCorrectSchema,
      (id, adminId, b) => correctMatch(ctx, id, adminId, b),
    );
    matchTool(
      'void',
      'Admin: void a finished match (ADMIN_VOIDED; its Elo reverted)',
      adminMatchVoidSchema,
      (id, adminId, b) => voidMatch(ctx, id, adminId, b.reason),
    );

    app.get(
      '/api/admin/users/:id/cooldowns',
      {
        onRequest: requireAdmin,
        schema: {
          tags: ['admin'],
          summary: "Admin: a player's queue cooldowns, newest first",
          security: [{ bearer: [] }],
          params: userParams,
          response: { 200: cooldownListSchema, ...refusals },
        },
      },
      async (request) => {
        const target = await userOr404(request.params.id);
        const rows = await cooldownHistory(ctx.db, target.id);
        return {
          docs: rows.map((r) => ({
            kind: r.kind,
            endsAt: r.endsAt,
            offence: r.offence,
            createdAt: r.createdAt,
            liftedAt: r.liftedAt,
            liftedBy: r.liftedBy,
          })),
        };
      },
    );

    app.post(
      '/api/admin/users/:id/cooldowns/lift',
      {
        onRequest: requireAdmin,
        schema: {
          tags: ['admin'],
          summary: "Admin: lift a player's running queue cooldowns (they no longer count towards escalation)",
          security: [{ bearer: [] }],
          params: userParams,
          response: { 200: cooldownLiftResponseSchema, ...refusals },
        },
      },
      async (request) => {
        const target = await userOr404(request.params.id);
        const adminId = currentUserId(request);
        const running = await activeCooldown(ctx, ctx.db, target.id);
        const lifted = await liftCooldowns(ctx, target.id, adminId);
        await recordAudit(ctx, ctx.db, {
          actorId: adminId,
          action: 'cooldown.lift',
          targetType: 'user',
          targetId: target.id,
          before: { cooldown: running },
          after: { cooldown: null, lifted },
        });
        request.log.info({ userId: target.id, adminId, lifted }, 'queue cooldowns lifted by an admin');
        return { lifted };
      },
    );
  };
}
