/**
 * Competition reads (no login needed): GET /api/users/ranking (leaderboard), GET
 * /api/users/:id/stats, GET /api/users/:id/highlights, GET /api/seasons/:id (dates, the admins'
 * details in a language, standings, prizes = the drop catalogue); PUT /api/seasons/:id (admins,
 * audited). Seeds season1 on start.
 */
import {
  competitionStatsSchema,
  dropItemSchema,
  errorBodySchema,
  highlightsSchema,
  idParamsSchema,
  isId,
  localeQuerySchema,
  type RankingPage,
  rankingPageSchema,
  rankingQuerySchema,
  seasonSchema,
  seasonStandingSchema,
  seasonUpdateBodySchema,
} from '@openpug/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { badRequest, notFound } from '../../lib/errors';
import { requestLocale } from '../accounts';
import { findUserById } from '../accounts/service';
import { requireAdmin } from '../auth';
import { allCatalogue } from '../drops/service';
import { createLeaderboard } from './leaderboard';
import { findSeason, highlights, playerStats, seedSeasons, standings, updateSeason } from './service';

function checkId(id: string): string {
  if (!isId(id)) throw badRequest('ID_MALFORMED');
  return id;
}

export function rankingModule(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onReady', () => seedSeasons(ctx));

    const leaderboard = createLeaderboard(ctx, {
      refreshMs: ctx.config.RANKING_REFRESH_MS,
      fullRefreshMs: ctx.config.RANKING_FULL_REFRESH_MS,
    });
    // Every rank shown anywhere (cards, profiles, friend lists) comes from this leaderboard's
    // snapshot: ranksOfUsers (accounts) reads it from here.
    ctx.state.ranking.leaderboard = leaderboard;
    // What the leaderboard shows changed on this instance: results, new players, public fields.
    ctx.bus.on('match.ended', () => leaderboard.invalidate());
    ctx.bus.on('user.created', () => leaderboard.invalidate());
    ctx.bus.on('user.publicChanged', () => leaderboard.invalidate());

    app.get(
      '/api/users/ranking',
      {
        schema: {
          tags: ['ranking'],
          summary:
            'Leaderboard: paged; default by rank (Elo desc); sort rank|elo|name|wins|losses|winRate; filter = name',
          querystring: rankingQuerySchema,
          response: { 200: rankingPageSchema },
        },
      },
      async (request, reply) => {
        // JSON text written once per snapshot and query (leaderboard.ts) from the very rows the
        // schema describes. Fastify sends a string as is, without serializing it again; the type
        // provider only knows the object form, hence the cast.
        const json = await leaderboard.pageJson(request.query);
        return reply.type('application/json; charset=utf-8').send(json as unknown as RankingPage);
      },
    );

    app.get(
      '/api/users/:id/stats',
      {
        schema: {
          tags: ['ranking'],
          summary: "A player's stats: Elo history, matches, win rate, K/D, ADR, HS rate, last five",
          params: idParamsSchema,
          response: { 200: competitionStatsSchema },
        },
      },
      async (request) => {
        const stats = await playerStats(ctx, checkId(request.params.id));
        if (!stats) throw notFound();
        return stats;
      },
    );

    app.get(
      '/api/users/:id/highlights',
      {
        schema: {
          tags: ['ranking'],
          summary: "A player's notable rounds (ace, 4k, clutch), newest first, each with its match",
          params: idParamsSchema,
          response: { 200: highlightsSchema },
        },
      },
      async (request) => {
        const id = checkId(request.params.id);
        if (!(await findUserById(ctx.db, id))) throw notFound();
        return { docs: await highlights(ctx, id) };
      },
    );

    app.get(
      '/api/seasons/:id',
      {
        schema: {
          tags: ['ranking'],
          summary:
            'A season: dates, the details admins wrote in a language, standings (Elo gained inside the window; frozen after the end), prizes',
          params: idParamsSchema,
          querystring: localeQuerySchema,
          response: {
            200: z.object({
              season: seasonSchema,
              standings: z.array(seasonStandingSchema),
              prizes: z.array(dropItemSchema),
            }),
          },
        },
      },
      async (request) => {
        const season = await findSeason(ctx, request.params.id, requestLocale(request));
        if (!season) throw notFound();
        return { season, standings: await standings(ctx, season._id), prizes: await allCatalogue(ctx) };
      },
    );

    app.put(
      '/api/seasons/:id',
      {
        onRequest: requireAdmin,
        schema: {
          tags: ['ranking'],
          summary: "Admin: set a season's dates and one language's details (audited)",
          security: [{ bearer: [] }],
          params: idParamsSchema,
          body: seasonUpdateBodySchema,
          response: { 200: seasonSchema, 404: errorBodySchema },
        },
      },
      async (request) => {
        const actorId = request.userId as string; // requireAdmin let only a signed-in admin through
        const season = await updateSeason(ctx, actorId, request.params.id, request.body);
        if (!season) throw notFound();
        return season;
      },
    );
  };
}
