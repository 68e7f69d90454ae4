/**
 * Game servers: picks the provider (GAME_SERVER_PROVIDER, default the simulator), allocates a
 * server once a match's map is set (job `match.allocate`; a failing provider cancels the match),
 * runs the simulator's steps and receives real servers' MatchZy events on
 * `POST /api/gameservers/events/:matchId` with `Authorization: Bearer <per-match secret>`.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { errorBodySchema, type TeamKey } from '@openpug/shared';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { jobsOf } from '../../jobs';
import { notFound, unauthorized } from '../../lib/errors';
import { bearerToken } from '../auth/guard';
import { matches } from '../matches/schema';
import { ALLOCATE_JOB, cancelMatchTx, loadMatch, setServer } from '../matches/service';
import { ingestEvent } from './ingest';
import type { GameServerProvider } from './provider';
import { SIM_JOB, SimulatorProvider, simStep } from './simulator';

const providers = new WeakMap<AppContext, GameServerProvider>();

export function providerOf(ctx: AppContext): GameServerProvider {
  let p = providers.get(ctx);
  if (!p) {
    p = new SimulatorProvider(ctx);
    providers.set(ctx, p);
  }
  return p;
}

/** Lets tests (and later the CS2 provider) choose the provider. */
export function setProvider(ctx: AppContext, provider: GameServerProvider): void {
  providers.set(ctx, provider);
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function gameserversModule(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const jobs = jobsOf(ctx);
    jobs.handle(ALLOCATE_JOB, async (job, tx, after) => {
      const found = await loadMatch(tx, job.key, true);
      if (found?.match.status !== 'active' || found.match.serverGotv || !found.match.mapKey) return;
      const { match, players } = found;
      const provider = providerOf(ctx);
      const roster = (team: TeamKey) =>
        players
          .filter((p) => p.team === team)
          .sort((a, b) => (a.pickNo ?? 0) - (b.pickNo ?? 0))
          .map((p) => ({ userId: p.userId, steamId: p.steamId, name: p.name }));
      const secret = randomBytes(24).toString('base64url');
      try {
        const server = await provider.allocate(
          {
            matchId: match.id,
            map: { key: match.mapKey as string, name: match.mapName ?? (match.mapKey as string) },
            teams: {
              teamOne: { name: match.teamOneName, players: roster('teamOne') },
              teamTwo: { name: match.teamTwoName, players: roster('teamTwo') },
            },
            eventsUrl: `${ctx.config.PUBLIC_URL}/api/gameservers/events/${match.id}`,
            secret,
          },
          tx,
          after,
        );
        await setServer(ctx, tx, after, match.id, { ...server, provider: provider.name, secret });
      } catch {
        await cancelMatchTx(ctx, tx, after, match.id, 'SERVER_UNAVAILABLE');
      }
    });
    jobs.handle(SIM_JOB, async (job, tx, after) => {
      const i = job.key.lastIndexOf(':');
      await simStep(ctx, tx, after, job.key.slice(0, i), Number(job.key.slice(i + 1)));
    });

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
            401: errorBodySchema,
            404: errorBodySchema,
            422: errorBodySchema,
          },
        },
      },
      async (request) => {
        const { matchId } = request.params;
        const [row] = await ctx.db
          .select({ secret: matches.serverSecret })
          .from(matches)
          .where(eq(matches.id, matchId));
        if (!row) throw notFound();
        const token = bearerToken(request.headers.authorization);
        if (!token || !row.secret || !sameSecret(token, row.secret)) throw unauthorized('UNAUTHORIZED');
        return ingestEvent(ctx, matchId, request.body, () => providerOf(ctx).release(matchId));
      },
    );
  };
}
