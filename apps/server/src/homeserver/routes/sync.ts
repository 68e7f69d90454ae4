/** Filters and /sync. */
import type { FastifyPluginAsync } from 'fastify';
import type { Homeserver } from '../context';
import { MatrixError } from '../errors';
import { auth, body, params, query, requireSelf } from '../http';
import { sync } from '../sync';
import { createFilter, getFilter } from '../users';

const DEFAULT_TIMELINE_LIMIT = 10;

function timelineLimit(filter: Record<string, unknown>): number {
  const room = filter.room as { timeline?: { limit?: unknown } } | undefined;
  const n = Number(room?.timeline?.limit ?? DEFAULT_TIMELINE_LIMIT);
  return Number.isFinite(n) && n > 0 ? Math.min(Math.floor(n), 100) : DEFAULT_TIMELINE_LIMIT;
}

export const syncRoutes =
  (hs: Homeserver): FastifyPluginAsync =>
  async (app) => {
    app.post('/client/v3/user/:userId/filter', async (req) => {
      const s = await auth(hs, req);
      requireSelf(s, params(req).userId);
      return { filter_id: await createFilter(hs, s.userId, body(req)) };
    });
    app.get('/client/v3/user/:userId/filter/:filterId', async (req) => {
      const s = await auth(hs, req);
      const p = params(req);
      requireSelf(s, p.userId);
      return getFilter(hs, s.userId, p.filterId);
    });
    app.get('/client/v3/sync', async (req) => {
      const s = await auth(hs, req);
      const q = query(req);
      let filter: Record<string, unknown> = {};
      if (q.filter?.startsWith('{')) {
        try {
          filter = JSON.parse(q.filter);
        } catch {
          throw new MatrixError(400, 'M_NOT_JSON', 'filter is not JSON');
        }
      } else if (q.filter) {
        filter = await getFilter(hs, s.userId, q.filter);
      }
      const timeout = Math.min(Math.max(Number(q.timeout ?? 0) || 0, 0), 60_000);
      return sync(hs, s, {
        since: q.since ?? null,
        timeoutMs: timeout,
        timelineLimit: timelineLimit(filter),
        fullState: q.full_state === 'true',
      });
    });
  };
