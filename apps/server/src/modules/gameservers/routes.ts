/**
 * Game servers: picks the provider (GAME_SERVER_PROVIDER: the simulator by default, or CS2 servers
 * running MatchZy), allocates a server once a match's map is set (job `match.allocate`; a failing
 * provider cancels the match), runs the simulator's steps, serves real servers their MatchZy match
 * config on `GET /api/gameservers/config/:matchId` and receives their events on
 * `POST /api/gameservers/events/:matchId`, both with `Authorization: Bearer <per-match secret>`.
 * Frees a match's server when matches announces the match is over (`match.ended`).
 */
import { randomBytes } from 'node:crypto';
import { errorBodySchema, type TeamKey } from '@openpug/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { After, defineJob, jobField, logOf } from '../../jobs';
import { errorResponses, notFound, unauthorized } from '../../lib/errors';
import { sameSecret } from '../../lib/secrets';
import { bearerToken } from '../auth';
import { matchStateOf } from '../matches/lifecycle';
import { serverSecretOf } from '../matches/reads';
import { cancelMatchTx, loadMatch, setServer } from '../matches/service';
import { isRostered, type MatchRow, type PlayerRow } from '../matches/state';
import { connectPollJob } from './connect-watch';
import { ingestEvent } from './ingest';
import { leaseOfMatch } from './leases';
import { matchzyMatchConfigSchema } from './matchzy';
import { buildMatchConfig, matchzyLoadJob, matchzyReleaseJob, remoteLogCvars } from './matchzy-provider';
import { gameServerUrls } from './provider';
import { providerOf } from './service';
import { simJob } from './simulator';

/**
 * Asks the provider for a server for the match (loaded and locked by the caller, map set) and
 * stores it with a fresh webhook secret; throws when no server takes it. `exclude` is a server not
 * to take (an admin moves the match away from it, admin/match-tools.ts).
 */
export async function allocateServer(
  ctx: AppContext,
  tx: Db,
  after: After,
  { match, players }: { match: MatchRow; players: readonly PlayerRow[] },
  exclude: string | null = null,
): Promise<void> {
  const provider = providerOf(ctx);
  const roster = (team: TeamKey) =>
    players
      .filter((p) => p.team === team && isRostered(p))
      .sort((a, b) => (a.pickNo ?? 0) - (b.pickNo ?? 0))
      .map((p) => ({ userId: p.userId, steamId: p.steamId, name: p.name }));
  const secret = randomBytes(24).toString('base64url');
  // The provider's after-commit work (arming the job that has a real server load the match)
  // runs once the room has been told about the server, so a failed load reads as "server
  // announced, then cancelled".
  const providerAfter = new After();
  const server = await provider.allocate(
    {
      matchId: match.id,
      map: { key: match.mapKey as string, name: match.mapName ?? (match.mapKey as string) },
      teams: {
        teamOne: { name: match.teamOneName, players: roster('teamOne') },
        teamTwo: { name: match.teamTwoName, players: roster('teamTwo') },
      },
      eventsUrl: gameServerUrls(ctx.config.PUBLIC_URL, match.id).eventsUrl,
      secret,
      exclude,
    },
    tx,
    providerAfter,
  );
  await setServer(ctx, tx, after, match.id, { ...server, provider: provider.name, secret });
  after.add(() => providerAfter.run(logOf(ctx)));
}

/**
 * A match's map is set (the matches module schedules this at once): it gets a game server, or is
 * cancelled with SERVER_UNAVAILABLE when no provider takes it.
 */
export const allocateJob = defineJob({
  kind: 'match.allocate',
  payload: z.object({ matchId: jobField.id }),
  handle: async (ctx, tx, after, { matchId }) => {
    const found = await loadMatch(tx, matchId, true);
    // Only a match that still wants a server (not moved or ended since the job was armed).
    if (!found || matchStateOf(found.match) !== 'allocating' || !found.match.mapKey) return;
    try {
      await allocateServer(ctx, tx, after, found);
    } catch (err) {
      logOf(ctx).error({ err, matchId: found.match.id }, 'no game server for the match');
      await cancelMatchTx(ctx, tx, after, found.match.id, 'SERVER_UNAVAILABLE');
    }
  },
});

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
