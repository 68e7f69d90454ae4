/** Account data (global and per room), tags and profiles. */
import type { FastifyPluginAsync } from 'fastify';
import { getAccountData, putAccountData, requireJoinedRoom } from '../accountdata';
import type { Homeserver } from '../context';
import { MatrixError, mxBadJson, mxNotFound } from '../errors';
import { membershipOf } from '../events';
import { auth, body, params, requireSelf, requireString } from '../http';
import { getProfile, setProfileField } from '../users';

export const userRoutes =
  (hs: Homeserver): FastifyPluginAsync =>
  async (app) => {
    const u = '/client/v3/user/:userId';
    app.get(`${u}/account_data/:type`, async (req) => {
      const s = await auth(hs, req);
      const p = params(req);
      requireSelf(s, p.userId);
      const content = await getAccountData(hs, s.userId, '', p.type);
      if (!content) throw mxNotFound('Account data not found');
      return content;
    });
    app.put(`${u}/account_data/:type`, async (req) => {
      const s = await auth(hs, req);
      const p = params(req);
      requireSelf(s, p.userId);
      await putAccountData(hs, s.userId, '', p.type, body(req));
      return {};
    });
    app.get(`${u}/rooms/:roomId/account_data/:type`, async (req) => {
      const s = await auth(hs, req);
      const p = params(req);
      requireSelf(s, p.userId);
      const content = await getAccountData(hs, s.userId, p.roomId, p.type);
      if (!content) throw mxNotFound('Room account data not found');
      return content;
    });
    app.put(`${u}/rooms/:roomId/account_data/:type`, async (req) => {
      const s = await auth(hs, req);
      const p = params(req);
      requireSelf(s, p.userId);
      const b = body(req);
      await requireMember(p.roomId, s.userId);
      await putAccountData(hs, s.userId, p.roomId, p.type, b);
      return {};
    });

    const requireMember = async (roomId: string, userId: string) => {
      const m = await membershipOf(hs, roomId, userId);
      if (!m || !['join', 'invite', 'leave'].includes(m.membership))
        await requireJoinedRoom(hs, roomId, userId);
    };
    const tags = async (userId: string, roomId: string) =>
      ((await getAccountData(hs, userId, roomId, 'm.tag'))?.tags ?? {}) as Record<string, unknown>;
    app.get(`${u}/rooms/:roomId/tags`, async (req) => {
      const s = await auth(hs, req);
      const p = params(req);
      requireSelf(s, p.userId);
      return { tags: await tags(s.userId, p.roomId) };
    });
    app.put(`${u}/rooms/:roomId/tags/:tag`, async (req) => {
      const s = await auth(hs, req);
      const p = params(req);
      requireSelf(s, p.userId);
      const b = body(req);
      if (b.order !== undefined && typeof b.order !== 'number') throw mxBadJson('order must be a number');
      await requireMember(p.roomId, s.userId);
      const current = await tags(s.userId, p.roomId);
      await putAccountData(hs, s.userId, p.roomId, 'm.tag', { tags: { ...current, [p.tag]: b } });
      return {};
    });
    app.delete(`${u}/rooms/:roomId/tags/:tag`, async (req) => {
      const s = await auth(hs, req);
      const p = params(req);
      requireSelf(s, p.userId);
      const current = await tags(s.userId, p.roomId);
      delete current[p.tag];
      await putAccountData(hs, s.userId, p.roomId, 'm.tag', { tags: current });
      return {};
    });

    app.get('/client/v3/profile/:userId', async (req) => getProfile(hs, params(req).userId));
    for (const field of ['displayname', 'avatar_url'] as const) {
      app.get(`/client/v3/profile/:userId/${field}`, async (req) => {
        const profile = await getProfile(hs, params(req).userId);
        if (profile[field] === undefined) throw mxNotFound(`No ${field}`);
        return { [field]: profile[field] };
      });
      app.put(`/client/v3/profile/:userId/${field}`, async (req) => {
        const s = await auth(hs, req);
        if (s.userId !== params(req).userId)
          throw new MatrixError(400, 'M_FORBIDDEN', `Cannot set another user's ${field}`);
        await setProfileField(hs, s.userId, field, requireString(body(req)[field], field));
        return {};
      });
    }
  };
