/**
 * The live match room: joins `match:<id>` over the app socket (logged in; after `authenticated`
 * so participants get `server.connect`) or over a spectator socket (logged out), keeps the newest
 * MATCH_STATE and folds in countdown and score updates between full states. The first state also
 * comes over REST (`GET /api/match/:id`), which answers before a spectator's socket has connected
 * and joined: the room's top paints from it (bench/RESULTS.md, session 16); the socket's states
 * replace it.
 */
import { type MatchState, type ServerToClientEvents, SOCKET_PATH } from '@openpug/shared';
import { type Dispatch, type SetStateAction, useEffect, useRef, useState } from 'react';
import { afterNextPaint } from '../../app/AfterFirstPaint';
import { getEarlyOr, takeArrived } from '../api';
import { useSession } from '../session';
import {
  type AppSocket,
  emitWithAck,
  followDraining,
  onServerEvents,
  type ServerEventHandlers,
  SocketRefusal,
  useSocketState,
} from '../socket';

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

type View = Omit<RoomView, 'socket'>;
type On<E extends keyof ServerToClientEvents> = ServerToClientEvents[E];

/** The newest MATCH_STATE of this match, with countdown, score and cancellation folded in. */
function roomEvents(matchId: string, setView: Dispatch<SetStateAction<View>>): ServerEventHandlers {
  const mine = (p: { matchId: string } | MatchState) => ('matchId' in p ? p.matchId : p._id) === matchId;
  const update = (fn: (state: MatchState) => MatchState) =>
    setView((v) => (v.state ? { ...v, state: fn(v.state) } : v));
  const state: On<'MATCH_STATE'> = (p) => mine(p) && setView((v) => ({ ...v, state: p, error: null }));
  const countdown: On<'MATCH_SET_COUNTDOWN'> = (p) =>
    mine(p) && update((st) => ({ ...st, deadline: p.deadline, turn: p.turn }));
  const score: On<'MATCH_SCORE_UPDATE'> = (p) =>
    mine(p) && update((st) => ({ ...st, score: p.score, stats: p.stats }));
  const cancelled: On<'MATCH_CANCELLED'> = (p) =>
    mine(p) && update((st) => ({ ...st, status: 'cancelled', cancelReason: p.reason }));
  return {
    MATCH_STATE: state,
    MATCH_SET_COUNTDOWN: countdown,
    MATCH_SCORE_UPDATE: score,
    MATCH_CANCELLED: cancelled,
  };
}

/** The REST state of a match (also the route's first request, app/routeTable.ts). */
const statePath = (matchId: string) => `/match/${encodeURIComponent(matchId)}`;

export function useMatchRoom(matchId: string): RoomView {
  const loggedIn = useSession((s) => s.isTokenSet);
  const appSocket = useSocketState((s) => s.socket);
  const authenticated = useSocketState((s) => s.authenticated);
  const [socket, setSocket] = useState<AppSocket | null>(null);
  const [view, setView] = useState<View>(() => ({
    state: takeArrived<MatchState>(statePath(matchId))?.value ?? null,
    error: null,
  }));
  const seeded = useRef(view.state !== null);
  // The REST answer is in (or refused): a spectator's socket starts after the paint that follows,
  // so its import and connection are not among the requests the room's first paint waits for
  // (Lighthouse counts every request started before the largest paint; bench/RESULTS.md,
  // session 17).
  const [restSettled, setRestSettled] = useState(seeded.current);

  useEffect(() => {
    if (!loggedIn) return;
    setSocket(authenticated ? appSocket : null);
  }, [loggedIn, appSocket, authenticated]);

  useEffect(() => {
    if (loggedIn || !restSettled) return;
    let alive = true;
    const cancel = afterNextPaint(
      () =>
        void spectator().then((s) => {
          if (alive) setSocket(s);
        }),
    );
    return () => {
      alive = false;
      cancel();
    };
  }, [loggedIn, restSettled]);

  useEffect(() => {
    if (seeded.current) return;
    const request = new AbortController();
    getEarlyOr<MatchState>(statePath(matchId), {
      silent: true,
      signal: request.signal,
    })
      .then(
        // Only until the socket's first state: that one is at least as new.
        (state) => setView((v) => (v.state ? v : { state, error: null })),
        // A refusal is the join's to report (the same keys over the socket).
        () => undefined,
      )
      .finally(() => {
        if (!request.signal.aborted) setRestSettled(true);
      });
    return () => request.abort();
  }, [matchId]);

  useEffect(() => {
    if (!socket) return;
    const off = onServerEvents(socket, roomEvents(matchId, setView));
    const join = () =>
      emitWithAck<MatchState>(socket, 'join-match', { matchId }, { silent: true }).then(
        (state) => setView((v) => ({ ...v, state, error: null })),
        (error) => setView((v) => ({ ...v, error: error instanceof SocketRefusal ? error.key : 'ERROR' })),
      );
    const rejoin = () => void join();
    if (socket.connected) rejoin();
    socket.on('connect', rejoin);
    return () => {
      off();
      socket.off('connect', rejoin);
      if (socket.connected)
        void emitWithAck(socket, 'leave-match', { matchId }, { silent: true }).catch(() => undefined);
    };
  }, [socket, matchId]);

  return { ...view, socket };
}
