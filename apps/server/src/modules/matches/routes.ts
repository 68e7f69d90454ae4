/**
 * Match room transport: socket `join-match` / `leave-match` / `match-message` and the public REST
 * reads `GET /api/match/:id`, `GET /api/match` and `GET /api/match/user/:userId/`. Registers the
 * match's job kinds (pick, ban, live, stale, connect, substitute and leaver deadlines).
 */
import {
  errorBodySchema,
  idSchema,
  type MatchListQuery,
  matchListQuerySchema,
  matchStateSchema,
  matchSummarySchema,
  pagedSchema,
  userMatchSchema,
} from '@openpug/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { logOf } from '../../jobs';
import { batched } from '../../lib/batch';
import { unauthorized } from '../../lib/errors';
import { leaverJob, requestSubstitute } from './leavers';
import { matchList, userMatchList } from './lists';
import { presenceOf } from './presence';
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
import { connectJob, offerRunningSlots, substituteJob, takeSubstituteSlot } from './substitutes';

export function matchesModule(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    ctx.jobs.register(pickJob, banJob, liveJob, staleJob, connectJob, substituteJob, leaverJob);
    // A player who queues or comes into the arena while a substitute offer runs gets it too (in
    // the background), asked once for all who come in together.
    const offerToNewcomer = batched(async (userIds: string[]) => {
      await ctx.priority.calm(); // not while the queue writes (lib/priority.ts)
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
      async (request) => matchList(ctx.db, request.query),
    );

    const userMatches = (request: { params: { userId: string }; query: MatchListQuery }) =>
      userMatchList(ctx.db, request.params.userId, request.query);
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
