/**
 * The live match room: joins `match:<id>` over the app socket (logged in; after `authenticated`
 * so participants get `server.connect`) or over a spectator socket (logged out), keeps the newest
 * MATCH_STATE and folds in countdown and score updates between full states.
 */
import { type MatchCancelledPayload, type MatchState, SOCKET_PATH } from '@openpug/shared';
import { useEffect, useState } from 'react';
import { useSession } from '../session/store';
import { type AppSocket, followDraining, useSocketState } from '../socket';
import { emitWithAck, SocketRefusal } from './emit';

let spectatorSocket: AppSocket | null = null;
async function spectator(): Promise<AppSocket> {
  if (spectatorSocket) return spectatorSocket;
  const { io } = await import('socket.io-client');
  spectatorSocket = io({ path: SOCKET_PATH, transports: ['websocket', 'polling'] }) as AppSocket;
  followDraining(spectatorSocket);
  return spectatorSocket;
}

export interface RoomView {
  state: MatchState | null;
  error: string | null;
  socket: AppSocket | null;
}

export function useMatchRoom(matchId: string): RoomView {
  const loggedIn = useSession((s) => s.isTokenSet);
  const appSocket = useSocketState((s) => s.socket);
  const authenticated = useSocketState((s) => s.authenticated);
  const [socket, setSocket] = useState<AppSocket | null>(null);
  const [view, setView] = useState<Omit<RoomView, 'socket'>>({
    state: null,
    error: null,
  });

  useEffect(() => {
    let alive = true;
    if (loggedIn) setSocket(authenticated ? appSocket : null);
    else
      void spectator().then((s) => {
        if (alive) setSocket(s);
      });
    return () => {
      alive = false;
    };
  }, [loggedIn, appSocket, authenticated]);

  useEffect(() => {
    if (!socket) return;
    const s = socket as unknown as { on(e: string, l: unknown): void; off(e: string, l: unknown): void };
    const mine = (p: { matchId?: string; _id?: string }) => (p.matchId ?? p._id) === matchId;
    const update = (fn: (state: MatchState) => MatchState) =>
      setView((v) => (v.state ? { ...v, state: fn(v.state) } : v));
    const handlers: [string, (p: never) => void][] = [
      ['MATCH_STATE', (p: MatchState) => mine(p) && setView((v) => ({ ...v, state: p, error: null }))],
      [
        'MATCH_SET_COUNTDOWN',
        (p: { matchId: string; deadline: number | null; turn: MatchState['turn'] }) =>
          mine(p) && update((st) => ({ ...st, deadline: p.deadline, turn: p.turn })),
      ],
      [
        'MATCH_SCORE_UPDATE',
        (p: { matchId: string; score: MatchState['score']; stats: MatchState['stats'] }) =>
          mine(p) && update((st) => ({ ...st, score: p.score, stats: p.stats })),
      ],
      [
        'MATCH_CANCELLED',
        (p: MatchCancelledPayload) =>
          mine(p) && update((st) => ({ ...st, status: 'cancelled', cancelReason: p.reason })),
      ],
    ];
    for (const [e, h] of handlers) s.on(e, h);
    const join = () =>
      emitWithAck<MatchState>(socket, 'join-match', { matchId }, { silent: true }).then(
        (state) => setView((v) => ({ ...v, state, error: null })),
        (error) => setView((v) => ({ ...v, error: error instanceof SocketRefusal ? error.key : 'ERROR' })),
      );
    const rejoin = () => void join();
    if (socket.connected) rejoin();
    s.on('connect', rejoin);
    return () => {
      for (const [e, h] of handlers) s.off(e, h);
      s.off('connect', rejoin);
      if (socket.connected) socket.emit('leave-match', { matchId });
    };
  }, [socket, matchId]);

  return { ...view, socket };
}
