/**
 * Game servers: picks the provider (GAME_SERVER_PROVIDER: the simulator by default, or CS2 servers
 * running MatchZy), allocates a server once a match's map is set (job `match.allocate` in
 * allocation.ts; a failing provider cancels the match), runs the simulator's steps, serves real servers their MatchZy match
 * config on `GET /api/gameservers/config/:matchId` and receives their events on
 * `POST /api/gameservers/events/:matchId`, both with `Authorization: Bearer <per-match secret>`.
 * Frees a match's server when matches announces the match is over (`match.ended`).
 */
import { errorBodySchema } from '@openpug/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { logOf } from '../../jobs';
import { errorResponses, notFound, unauthorized } from '../../lib/errors';
import { sameSecret } from '../../lib/secrets';
import { bearerToken } from '../auth';
import { serverSecretOf } from '../matches';
import { loadMatch } from '../matches/service';
import { allocateJob } from './allocation';
import { connectPollJob } from './connect-watch';
import { ingestEvent } from './ingest';
import { leaseOfMatch } from './leases';
import { matchzyMatchConfigSchema } from './matchzy';
import { buildMatchConfig, matchzyLoadJob, matchzyReleaseJob, remoteLogCvars } from './matchzy-provider';
import { gameServerUrls } from './provider';
import { providerOf } from './service';
import { simJob } from './simulator';

export function gameserversModule(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    ctx.jobs.register(allocateJob, connectPollJob, simJob, matchzyLoadJob, matchzyReleaseJob);
    // A match that is over, however it ended (result, failed allocation, live timeout, an admin),
    // gives its server back.
    ctx.bus.on('match.ended', ({ matchId }) => providerOf(ctx).release(matchId));
    // A substitute joins the roster on the server.
    ctx.bus.on('match.substituted', async ({ matchId, team, out, sub }) => {
      try {
        await providerOf(ctx).swapPlayer?.(matchId, out, sub, team);
      } catch (err) {
        logOf(ctx).error({ err, matchId, sub: sub.userId }, 'the game server did not take the substitute');
      }
    });

    /**
     * The match's secret, checked against the request's bearer token (404 before 401). A match
     * played on a pool server (it has a lease) is served only while its lease is open: the secret
     * dies with the booking, so a server that moved on cannot post into an old match.
     */
    const authorizeServer = async (
      matchId: string,
      match: { serverSecret: string | null; provider: string | null },
      authorization: string | undefined,
    ) => {
      const token = bearerToken(authorization);
      const secret = match.serverSecret;
      if (!token || !secret || !sameSecret(token, secret)) throw unauthorized('UNAUTHORIZED');
      const lease = await leaseOfMatch(ctx.db, matchId);
      const booked = lease !== null && lease.releasedAt === null;
      if ((lease || match.provider === 'matchzy') && !booked) throw unauthorized('UNAUTHORIZED');
      return lease;
    };

    app.get(
      '/api/gameservers/config/:matchId',
      {
        schema: {
          tags: ['gameservers'],
          summary:
            'MatchZy match config for matchzy_loadmatch_url (Authorization: Bearer <per-match secret>)',
          params: z.object({ matchId: z.string().min(1).max(64) }),
          response: { 200: matchzyMatchConfigSchema, 401: errorBodySchema, 404: errorBodySchema },
        },
      },
      async (request) => {
        const { matchId } = request.params;
        const found = await loadMatch(ctx.db, matchId);
        if (!found) throw notFound();
        const lease = await authorizeServer(matchId, found.match, request.headers.authorization);
        if (!lease) throw notFound();
        const { eventsUrl } = gameServerUrls(ctx.config.PUBLIC_URL, matchId);
        return buildMatchConfig(
          found.match,
          found.players,
          lease.gameMatchId,
          remoteLogCvars(eventsUrl, found.match.serverSecret as string),
        );
      },
    );

    app.post(
      '/api/gameservers/events/:matchId',
      {
        schema: {
          tags: ['gameservers'],
          summary: 'MatchZy event webhook (Authorization: Bearer <per-match secret>)',
          params: z.object({ matchId: z.string().min(1).max(64) }),
          body: z.looseObject({ event: z.string().min(1) }),
          response: {
            200: z.object({
              accepted: z.boolean(),
              event: z.string().optional(),
              reason: z.string().optional(),
            }),
            ...errorResponses(401, 404, 422),
          },
        },
      },
      async (request) => {
        const { matchId } = request.params;
        const row = await serverSecretOf(ctx.db, matchId);
        if (!row) throw notFound();
        await authorizeServer(matchId, row, request.headers.authorization);
        return ingestEvent(ctx, matchId, request.body);
      },
    );
  };
}
