/**
 * Rooms: create, join, invite, leave, kick, ban, unban, report, directory aliases, send, redact, state, /messages, event by id,
 * members and joined rooms.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Homeserver } from '../context';
import { mxForbidden, mxInvalidParam, mxNotFound } from '../errors';
import {
  clientEvent,
  currentState,
  eventById,
  eventsAfter,
  eventsBefore,
  membershipOf,
  roomsOf,
} from '../events';
import { auth, body, params, query } from '../http';
import { moderateMember, reportEvent } from '../moderation';
import {
  createRoom,
  deleteAlias,
  inviteUser,
  joinRoom,
  leaveRoom,
  putAlias,
  readableUpTo,
  readState,
  redactEvent,
  resolveAlias,
  sendMessage,
  setState,
} from '../rooms';
import { tokenPosition } from '../sync';

export const roomRoutes =
  (hs: Homeserver): FastifyPluginAsync =>
  async (app) => {
    const r = '/client/v3/rooms/:roomId';

    app.post('/client/v3/createRoom', async (req) => createRoom(hs, await auth(hs, req), body(req)));

    const join = async (req: FastifyRequest) => {
      const s = await auth(hs, req);
      body(req);
      const p = params(req);
      return { room_id: await joinRoom(hs, s, p.roomIdOrAlias ?? p.roomId) };
    };
    app.post('/client/v3/join/:roomIdOrAlias', join);
    app.post(`${r}/join`, join);

    app.post(`${r}/invite`, async (req) => {
      const s = await auth(hs, req);
      await inviteUser(hs, s, params(req).roomId, body(req).user_id);
      return {};
    });
    app.post(`${r}/leave`, async (req) => {
      const s = await auth(hs, req);
      body(req);
      await leaveRoom(hs, s, params(req).roomId);
      return {};
    });
    for (const action of ['kick', 'ban', 'unban'] as const) {
      app.post(`${r}/${action}`, async (req) => {
        const s = await auth(hs, req);
        await moderateMember(hs, s, params(req).roomId, action, body(req));
        return {};
      });
    }
    app.post(`${r}/report/:eventId`, async (req) => {
      const s = await auth(hs, req);
      const p = params(req);
      await reportEvent(hs, s, p.roomId, p.eventId, body(req));
      return {};
    });
    app.post(`${r}/forget`, async (req) => {
      await auth(hs, req);
      return {};
    });

    app.get('/client/v3/directory/room/:alias', async (req) => {
      const alias = params(req).alias;
      const roomId = await resolveAlias(hs, alias);
      if (!roomId) throw mxNotFound(`Room alias ${alias} not found`);
      return { room_id: roomId, servers: [hs.serverName] };
    });
    app.put('/client/v3/directory/room/:alias', async (req) => {
      const s = await auth(hs, req);
      await putAlias(hs, s, params(req).alias, body(req).room_id);
      return {};
    });
    app.delete('/client/v3/directory/room/:alias', async (req) => {
      const s = await auth(hs, req);
      await deleteAlias(hs, s, params(req).alias);
      return {};
    });

    app.put(`${r}/send/:eventType/:txnId`, async (req) => {
      const s = await auth(hs, req);
      const p = params(req);
      return { event_id: await sendMessage(hs, s, p.roomId, p.eventType, body(req), p.txnId) };
    });

    app.put(`${r}/redact/:eventId/:txnId`, async (req) => {
      const s = await auth(hs, req);
      const p = params(req);
      return { event_id: await redactEvent(hs, s, p.roomId, p.eventId, body(req), p.txnId) };
    });

    const putState = async (req: FastifyRequest) => {
      const s = await auth(hs, req);
      const p = params(req);
      return { event_id: await setState(hs, s, p.roomId, p.eventType, p.stateKey ?? '', body(req)) };
    };
    const getState = async (req: FastifyRequest) => {
      const s = await auth(hs, req);
      const p = params(req);
      return (await readState(hs, s, p.roomId, p.eventType, p.stateKey ?? '')).content;
    };
    for (const path of [
      `${r}/state/:eventType`,
      `${r}/state/:eventType/`,
      `${r}/state/:eventType/:stateKey`,
    ]) {
      app.put(path, putState);
      app.get(path, getState);
    }
    app.get(`${r}/state`, async (req) => {
      const s = await auth(hs, req);
      const roomId = params(req).roomId;
      const upTo = await readableUpTo(hs, roomId, s.userId);
      return (await currentState(hs, roomId))
        .filter((e) => e.stream <= upTo)
        .map((e) => clientEvent(hs, e, s));
    });
    app.get(`${r}/members`, async (req) => {
      const s = await auth(hs, req);
      const roomId = params(req).roomId;
      const upTo = await readableUpTo(hs, roomId, s.userId);
      const chunk = (await currentState(hs, roomId))
        .filter((e) => e.type === 'm.room.member' && e.stream <= upTo)
        .map((e) => clientEvent(hs, e, s));
      return { chunk };
    });
    app.get(`${r}/joined_members`, async (req) => {
      const s = await auth(hs, req);
      const roomId = params(req).roomId;
      if ((await membershipOf(hs, roomId, s.userId))?.membership !== 'join') throw mxForbidden('Not in room');
      const joined: Record<string, object> = {};
      for (const e of await currentState(hs, roomId)) {
        if (e.type === 'm.room.member' && e.content.membership === 'join' && e.stateKey) {
          joined[e.stateKey] = {
            display_name: e.content.displayname ?? null,
            avatar_url: e.content.avatar_url ?? null,
          };
        }
      }
      return { joined };
    });
    app.get('/client/v3/joined_rooms', async (req) => {
      const s = await auth(hs, req);
      return {
        joined_rooms: (await roomsOf(hs, s.userId))
          .filter((m) => m.membership === 'join')
          .map((m) => m.roomId),
      };
    });

    app.get(`${r}/event/:eventId`, async (req) => {
      const s = await auth(hs, req);
      const p = params(req);
      const upTo = await readableUpTo(hs, p.roomId, s.userId);
      const e = await eventById(hs, p.eventId);
      if (!e || e.roomId !== p.roomId || e.stream > upTo) throw mxNotFound('Could not find event');
      return clientEvent(hs, e, s);
    });

    app.get(`${r}/messages`, async (req) => {
      const s = await auth(hs, req);
      const roomId = params(req).roomId;
      const q = query(req);
      const dir = q.dir ?? 'b';
      if (dir !== 'b' && dir !== 'f') throw mxInvalidParam("dir must be 'b' or 'f'");
      const limit = Math.min(Math.max(Number(q.limit ?? 10) || 10, 1), 1000);
      const upTo = Math.min(await readableUpTo(hs, roomId, s.userId), hs.stream.position);
      const parse = (t: string | undefined, fallback: number) => {
        if (t === undefined) return fallback;
        const n = tokenPosition(t);
        if (n === null) throw mxInvalidParam('Invalid token');
        return n;
      };
      const from = parse(q.from, dir === 'b' ? upTo : 0);
      const to = q.to !== undefined ? parse(q.to, 0) : undefined;
      const rows =
        dir === 'b'
          ? await eventsBefore(hs, roomId, Math.min(from, upTo), limit, to ?? 0)
          : await eventsAfter(hs, roomId, from, limit, Math.min(to ?? upTo, upTo));
      const chunk = rows.map((e) => clientEvent(hs, e, s));
      const last = rows.at(-1);
      const end = last ? (dir === 'b' ? last.stream - 1 : last.stream) : undefined;
      return {
        chunk,
        start: `p${from}`,
        ...(end !== undefined && rows.length === limit ? { end: `p${end}` } : {}),
        ...(end !== undefined && rows.length < limit && dir === 'f' ? { end: `p${end}` } : {}),
        state: [],
      };
    });
  };
