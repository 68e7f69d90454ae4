/** Liveness and readiness: `GET /api/health` reports the database; `/version.json` the build. */

import { versionFileSchema } from '@openpug/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';

export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({ kind: z.enum(['pglite', 'postgres']), ok: z.boolean() }),
  version: z.string(),
  uptimeSeconds: z.number(),
});

export function healthModule(ctx: AppContext): FastifyPluginAsyncZod {
  const startedAt = ctx.clock.now();
  return async (app) => {
    app.get(
      '/api/health',
      {
        schema: {
          tags: ['health'],
          summary: 'Service health, including the database',
          response: { 200: healthResponseSchema, 503: healthResponseSchema },
        },
      },
      async (_req, reply) => {
        const ok = await ctx.database.ping();
        return reply.status(ok ? 200 : 503).send({
          status: ok ? 'ok' : 'degraded',
          database: { kind: ctx.database.kind, ok },
          version: ctx.version,
          uptimeSeconds: Math.round((ctx.clock.now() - startedAt) / 1000),
        });
      },
    );
    app.get(
      '/version.json',
      {
        schema: {
          tags: ['health'],
          summary: 'Version of the web build',
          response: { 200: versionFileSchema },
        },
      },
      async (_req, reply) => {
        // Never cached: clients poll it to learn about new builds.
        reply.header('cache-control', 'no-store');
        return { version: ctx.version };
      },
    );
  };
}
