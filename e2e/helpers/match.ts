/**
 * Journey helpers for matchmaking: socket bots (socket.io-client in the test process) that log in,
 * queue, accept and act in the match room, and a reader for the public match state.
 *
 * - `connectBot(baseURL, token)` → an authenticated socket
 * - `call(socket, event, payload)` → the ack's data (throws the refusal key)
 * - `matchState(request, matchId)` → GET /api/match/:id
 */
import type { APIRequestContext } from '@playwright/test';
import { io, type Socket } from 'socket.io-client';

export type Bot = Socket;

export async function connectBot(baseURL: string, token: string): Promise<Bot> {
  const socket = io(baseURL, { path: '/socket', transports: ['websocket'], forceNew: true });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('bot did not authenticate')), 10_000);
    socket.once('authenticated', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.on('connect', () => socket.emit('authenticate', { key: token }));
  });
  return socket;
}

export function call<T = unknown>(socket: Bot, event: string, payload: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    socket
      .timeout(10_000)
      .emit(event, payload, (err: Error | null, reply: { ok: boolean; data?: T; msg?: string }) => {
        if (err) reject(err);
        else if (reply.ok) resolve(reply.data as T);
        else reject(new Error(reply.msg));
      });
  });
}

export interface PublicMatchState {
  _id: string;
  status: 'playerveto' | 'mapveto' | 'active' | 'finished' | 'cancelled';
  turn: 'teamOne' | 'teamTwo' | null;
  teamOne: { captain: { _id: string }; players: { _id: string }[] };
  teamTwo: { captain: { _id: string }; players: { _id: string }[] };
  pool: { _id: string }[];
  mapVeto: { pool: { key: string }[]; bans: { mapKey: string }[] };
  score: { teamOne: number; teamTwo: number };
}

export async function matchState(request: APIRequestContext, matchId: string): Promise<PublicMatchState> {
  const res = await request.get(`/api/match/${matchId}`);
  if (!res.ok()) throw new Error(`GET /api/match/${matchId}: ${res.status()}`);
  return res.json();
}
