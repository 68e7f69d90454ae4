/** Typing notifications, receipts and read markers. */
import type { FastifyPluginAsync } from 'fastify';
import { requireJoinedRoom, setReceipt } from '../accountdata';
import type { Homeserver } from '../context';
import { mxBadJson } from '../errors';
import { membersOf } from '../events';
import { auth, body, params, requireSelf } from '../http';

export const ephemeralRoutes =
  (hs: Homeserver): FastifyPluginAsync =>
  async (app) => {
    app.put('/client/v3/rooms/:roomId/typing/:userId', async (req) => {
      const s = await auth(hs, req);
      const p = params(req);
      requireSelf(s, p.userId);
      const b = body(req);
      if (typeof b.typing !== 'boolean') throw mxBadJson('typing must be a boolean');
      await requireJoinedRoom(hs, p.roomId, s.userId);
      const timeout = typeof b.timeout === 'number' ? b.timeout : 30_000;
      if (hs.typing.set(p.roomId, s.userId, b.typing, timeout)) {
        hs.notifier.notify(await membersOf(hs, p.roomId, ['join']));
      }
      return {};
    });
    app.post('/client/v3/rooms/:roomId/receipt/:receiptType/:eventId', async (req) => {
      const s = await auth(hs, req);
      const p = params(req);
      body(req);
      await setReceipt(hs, s.userId, p.roomId, p.receiptType, p.eventId);
      return {};
    });
    app.post('/client/v3/rooms/:roomId/read_markers', async (req) => {
      const s = await auth(hs, req);
      const roomId = params(req).roomId;
      const b = body(req);
      await requireJoinedRoom(hs, roomId, s.userId);
      for (const type of ['m.fully_read', 'm.read', 'm.read.private']) {
        const eventId = b[type];
        if (eventId === undefined) continue;
        if (typeof eventId !== 'string') throw mxBadJson(`${type} must be an event id`);
        await setReceipt(hs, s.userId, roomId, type, eventId);
      }
      return {};
    });
  };
