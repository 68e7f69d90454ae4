/**
 * Journey helpers for matchmaking: socket bots (socket.io-client in the test process) that log in,
 * queue, accept and act in the match room, and a reader for the public match state.
 *
 * - `connectBot(baseURL, token)` → an authenticated socket
 * - `call(socket, event, payload)` → the ack's data (throws the refusal key)
 * - `matchState(request, matchId)` → GET /api/match/:id
 * - `botVetoTurn(bot, matchId, state)` → the captain bot on turn picks or bans
 * - `waitForVetoStep(request, matchId, state)` → until the veto has moved on from `state`
 */
import { type APIRequestContext, expect } from '@playwright/test';
import { io, type Socket } from 'socket.io-client';
import { allow } from './time';

export type Bot = Socket;

export async function connectBot(baseURL: string, token: string): Promise<Bot> {
  const socket = io(baseURL, { path: '/socket', transports: ['websocket'], forceNew: true });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('bot did not authenticate')), allow(10_000));
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
      .timeout(allow(10_000))
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

/** The bot, captain on turn in `state`, picks the first player of the pool or bans the first map not banned yet. */
export async function botVetoTurn(bot: Bot, matchId: string, state: PublicMatchState): Promise<void> {
  if (state.status === 'playerveto') {
    await call(bot, 'match-message', {
      event: 'pick-player',
      data: { matchId, pickedId: state.pool[0]._id },
    });
    return;
  }
  const banned = new Set(state.mapVeto.bans.map((x) => x.mapKey));
  const map = state.mapVeto.pool.find((m) => !banned.has(m.key)) as { key: string };
  await call(bot, 'match-message', { event: 'ban-map', data: { matchId, mapKey: map.key } });
}

/** Waits until the veto has moved on from `state`: a pick or a ban went through, or the match is active. */
export async function waitForVetoStep(
  request: APIRequestContext,
  matchId: string,
  state: PublicMatchState,
): Promise<void> {
  const progress = (s: PublicMatchState) => s.pool.length + s.mapVeto.bans.length * 100;
  const before = progress(state);
  await expect
    .poll(async () => {
      const s = await matchState(request, matchId);
      return progress(s) !== before || s.status === 'active';
    })
    .toBe(true);
}
