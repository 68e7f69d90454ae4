/**
 * The live connection (Socket.IO on /socket, typed by @openpug/shared). It follows the session:
 * when a token appears (login or auto login) it connects and sends `authenticate {key: token}`,
 * again after every reconnect and after a token refresh; when the token goes away it sends
 * `logout` and disconnects. socket.io-client is loaded on demand, so logged-out visitors never
 * download it.
 *
 * A revoked session (password change elsewhere, ban; docs/contract.md §4) hears `unauthorized` and
 * is disconnected by the server: the tab signs out unless it holds a newer token, and a tab still
 * signed in connects again by itself.
 */
import { type ClientToServerEvents, type ServerToClientEvents, SOCKET_PATH } from '@openpug/shared';
import type { Socket } from 'socket.io-client';
import { create } from 'zustand';
import { endRevokedSession, useSession } from '../session';

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

interface SocketState {
  socket: AppSocket | null;
  /** The server confirmed the token (`authenticated`). */
  authenticated: boolean;
}

export const useSocketState = create<SocketState>(() => ({ socket: null, authenticated: false }));

export function getSocket(): AppSocket | null {
  return useSocketState.getState().socket;
}

// Acks each socket still owes this client (emitWithAck counts them), and the sockets whose
// instance announced it is shutting down (`server-draining`, docs/architecture.md, Realtime).
const owedAcks = new WeakMap<AppSocket, number>();
const draining = new WeakSet<AppSocket>();
/** How long a draining socket waits for its owed acks before it drops the transport anyway. */
const DRAIN_WAIT_MS = 1_500;

export function countOwedAck(socket: AppSocket, delta: 1 | -1): void {
  owedAcks.set(socket, (owedAcks.get(socket) ?? 0) + delta);
}

/**
 * Follows `server-draining` on a socket: stop sending, let the owed acks arrive, then close the
 * transport. Socket.IO sees a lost transport and reconnects by itself, through the proxy, to an
 * instance that is not shutting down (the draining one refuses new handshakes).
 */
export function followDraining(socket: AppSocket): void {
  socket.on('server-draining', () => {
    draining.add(socket);
    if (socket === getSocket()) useSocketState.setState({ authenticated: false });
    const giveUpAt = Date.now() + DRAIN_WAIT_MS;
    const cut = () => {
      if ((owedAcks.get(socket) ?? 0) > 0 && Date.now() < giveUpAt) setTimeout(cut, 25);
      else socket.io.engine?.close();
    };
    cut();
  });
  socket.on('connect', () => draining.delete(socket));
}

/** Connected, not draining, and (the signed-in socket) authenticated: an event sent now is answered. */
function isReady(socket: AppSocket): boolean {
  if (!socket.connected || draining.has(socket)) return false;
  return socket !== getSocket() || useSocketState.getState().authenticated;
}

/** Resolves true once the socket is ready, false after `timeoutMs`. */
export async function whenReady(socket: AppSocket, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (!isReady(socket)) {
    if (Date.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

/** The token last sent in `authenticate`: an `unauthorized` answer refuses that one. */
let sentToken: string | null = null;

function authenticate(socket: AppSocket): void {
  const { token } = useSession.getState();
  if (!token) return;
  sentToken = token;
  socket.emit('authenticate', { key: token });
}

async function connect(): Promise<void> {
  const { io } = await import('socket.io-client');
  // The session may have ended, or another call connected, while the library was loading.
  if (!useSession.getState().token || getSocket()) return;
  const socket: AppSocket = io({ path: SOCKET_PATH, transports: ['websocket', 'polling'] });
  socket.on('connect', () => authenticate(socket));
  socket.on('disconnect', (reason) => {
    useSocketState.setState({ authenticated: false });
    // The server ended this connection (a revoked session): a tab still signed in comes back.
    if (reason === 'io server disconnect' && useSession.getState().token && getSocket() === socket)
      socket.connect();
  });
  socket.on('authenticated', () => useSocketState.setState({ authenticated: true }));
  socket.on('unauthorized', () => {
    const { token } = useSession.getState();
    if (token && token !== sentToken) authenticate(socket);
    else endRevokedSession(sentToken);
  });
  followDraining(socket);
  useSocketState.setState({ socket, authenticated: false });
}

function disconnect(socket: AppSocket): void {
  if (socket.connected) socket.emit('logout');
  socket.disconnect();
  useSocketState.setState({ socket: null, authenticated: false });
}

function follow(token: string | null): void {
  const socket = getSocket();
  if (token === null) {
    if (socket) disconnect(socket);
  } else if (!socket) {
    void connect();
  } else if (socket.connected) {
    authenticate(socket); // a refreshed token
  }
}

/** Starts following the session; returns the unsubscribe function. Called once at start-up. */
export function startSocketSync(): () => void {
  follow(useSession.getState().token);
  return useSession.subscribe((state, previous) => {
    if (state.token !== previous.token) follow(state.token);
  });
}
