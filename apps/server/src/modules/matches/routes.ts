/**
 * Match room transport: socket `join-match` / `leave-match` / `match-message` and the public REST
 * reads `GET /api/match/:id`, `GET /api/match` and `GET /api/match/user/:userId/`. Registers the
 * match's job kinds (pick, ban, live, stale, connect, substitute and leaver deadlines).
 */
import {
  errorBodySchema,
  idSchema,
  LIVE_MATCH_STATUSES,
  type MatchListQuery,
  matchListQuerySchema,
  matchStateSchema,
  matchSummarySchema,
  pagedSchema,
  userMatchSchema,
} from '@openpug/shared';
import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { logOf } from '../../jobs';
import { batched } from '../../lib/batch';
import { unauthorized } from '../../lib/errors';
import { leaverJob, requestSubstitute } from './leavers';
import { presenceOf } from './presence';
import { matches, matchPlayers } from './schema';
import {
  banJob,
  banMap,
  getMatchState,
  liveJob,
  matchRoom,
  pickJob,
  pickPlayer,
  requestHelp,
  staleJob,
} from './service';
import { buildSummary, type PlayerRow } from './state';
import { connectJob, offerRunningSlots, substituteJob, takeSubstituteSlot } from './substitutes';

/** A match list's page of the query (`order` 1: oldest first). */
function listPage<T extends PgSelect>(query: T, q: MatchListQuery) {
  return query
    .orderBy(q.order === 1 ? matches.createdAt : desc(matches.createdAt))
    .limit(q.limit)
    .offset((q.page - 1) * q.limit);
}

/** The list filter: `live` is every running status (playerveto, mapveto, active). */
function statusFilter(status: MatchListQuery['status']): SQL | undefined {
  if (status === 'live') return inArray(matches.status, [...LIVE_MATCH_STATUSES]);
  return status ? eq(matches.status, status) : undefined;
}

async function playersOf(ctx: AppContext, ids: string[]): Promise<Map<string, PlayerRow[]>> {
  const byMatch = new Map<string, PlayerRow[]>();
  if (ids.length === 0) return byMatch;
  const rows = await ctx.db.select().from(matchPlayers).where(inArray(matchPlayers.matchId, ids));
  for (const r of rows) {
    const list = byMatch.get(r.matchId) ?? [];
    list.push(r);
    byMatch.set(r.matchId, list);
  }
  return byMatch;
}

export function matchesModule(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    ctx.jobs.register(pickJob, banJob, liveJob, staleJob, connectJob, substituteJob, leaverJob);
    // A player who queues or comes into the arena while a substitute offer runs gets it too (in
    // the background), asked once for all who come in together.
    const offerToNewcomer = batched(async (userIds: string[]) => {
      await offerRunningSlots(ctx, userIds);
      return new Map<string, true>();
    }, true);
    ctx.bus.on('status.patch', ({ userId, patch }) => {
      if (patch.inQueue === true || patch.inArena === true)
        void offerToNewcomer(userId).catch((err) =>
          logOf(ctx).error({ err, userId }, 'substitute offers to a new queue player failed'),
        );
    });
    // A match with an open offer that ends however it ends closes the offer everywhere.
    ctx.bus.on('match.ended', async ({ matchId }) => {
      const { noShows, subRequests } = await presenceOf(ctx.db, matchId);
      if (noShows.size > 0 || subRequests.size > 0)
        ctx.realtime.toAll('PUBLIC_SUBSTITUTE_CLOSED', { matchId });
    });

    // ---- socket ----
    ctx.realtime.on(
      'join-match',
      async (socket, { matchId }) => {
        const state = await getMatchState(ctx, matchId, socket.data.userId ?? null);
        await socket.join(matchRoom(matchId));
        socket.emit('MATCH_STATE', state);
        return state;
      },
      { auth: false },
    );
    ctx.realtime.on(
      'leave-match',
      async (socket, { matchId }) => {
        await socket.leave(matchRoom(matchId));
        return { left: matchId };
      },
      { auth: false },
    );
    ctx.realtime.on(
      'match-message',
      async (socket, message) => {
        const userId = socket.data.userId ?? null;
        if (message.event === 'get-state') {
          const state = await getMatchState(ctx, message.data.matchId, userId);
          socket.emit('MATCH_STATE', state);
          return state;
        }
        if (!userId) throw unauthorized();
        switch (message.event) {
          case 'pick-player':
            await pickPlayer(ctx, userId, message.data.matchId, message.data.pickedId);
            return { done: true };
          case 'ban-map':
            await banMap(ctx, userId, message.data.matchId, message.data.mapKey);
            return { done: true };
          case 'help':
            await requestHelp(ctx, userId, message.data.matchId, message.data.msg);
            return { done: true };
        }
      },
      { auth: false },
    );

    ctx.realtime.on('substitute-accept', (socket, { matchId }) =>
      takeSubstituteSlot(ctx, socket.data.userId as string, matchId),
    );
    ctx.realtime.on('substitute-request', (socket, { matchId, userId }) =>
      requestSubstitute(ctx, socket.data.userId as string, matchId, userId),
    );

    // ---- REST ----
    const idParams = z.object({ id: z.string().min(1).max(64) });
    app.get(
      '/api/match/:id',
      {
        schema: {
          tags: ['matches'],
          summary: 'Match state (public; players of the match also get the connect address)',
          params: idParams,
          response: { 200: matchStateSchema, 404: errorBodySchema },
        },
      },
      async (request) => getMatchState(ctx, request.params.id, request.userId),
    );

    app.get(
      '/api/match',
      {
        schema: {
          tags: ['matches'],
          summary: 'Matches, newest first (status=live for running ones)',
          querystring: matchListQuerySchema,
          response: { 200: pagedSchema(matchSummarySchema) },
        },
      },
      async (request) => {
        const q = request.query;
        const where = statusFilter(q.status);
        const [{ total }] = await ctx.db.select({ total: count() }).from(matches).where(where);
        const rows = await listPage(ctx.db.select().from(matches).where(where).$dynamic(), q);
        const players = await playersOf(
          ctx,
          rows.map((r) => r.id),
        );
        return { docs: rows.map((m) => buildSummary(m, players.get(m.id) ?? [])), totalDocs: Number(total) };
      },
    );

    const userMatches = async (request: { params: { userId: string }; query: MatchListQuery }) => {
      const q = request.query;
      const where = and(eq(matchPlayers.userId, request.params.userId), statusFilter(q.status));
      const [{ total }] = await ctx.db
        .select({ total: count() })
        .from(matchPlayers)
        .innerJoin(matches, eq(matches.id, matchPlayers.matchId))
        .where(where);
      const rows = await listPage(
        ctx.db
          .select({ match: matches, player: matchPlayers })
          .from(matchPlayers)
          .innerJoin(matches, eq(matches.id, matchPlayers.matchId))
          .where(where)
          .$dynamic(),
        q,
      );
      const players = await playersOf(
        ctx,
        rows.map((r) => r.match.id),
      );
      return {
        docs: rows.map(({ match, player }) => ({
          ...buildSummary(match, players.get(match.id) ?? []),
          player: {
            team: player.team,
            // A leaver lost, whatever the score (docs/contract.md §4).
            victory:
              match.status !== 'finished'
                ? null
                : player.leftAt !== null
                  ? false
                  : match.winner !== 'draw' && match.winner !== null
                    ? match.winner === player.team
                    : null,
            kills: player.kills,
            deaths: player.deaths,
            assists: player.assists,
            eloBefore: player.eloBefore,
            eloAfter: player.eloAfter,
          },
        })),
        totalDocs: Number(total),
      };
    };
    const userSchema = {
      tags: ['matches'],
      summary: "A player's matches, newest first",
      params: z.object({ userId: idSchema }),
      querystring: matchListQuerySchema,
      response: { 200: pagedSchema(userMatchSchema) },
    };
    app.get('/api/match/user/:userId/', { schema: userSchema }, userMatches);
    app.get('/api/match/user/:userId', { schema: { ...userSchema, hide: true } }, userMatches);
  };
}
