/**
 * The live connection (Socket.IO on /socket, typed by @openpug/shared). It follows the session:
 * when a token appears (login or auto login) it connects and sends `authenticate {key: token}`,
 * again after every reconnect and after a token refresh; when the token goes away it sends
 * `logout` and disconnects. socket.io-client is loaded on demand, so logged-out visitors never
 * download it.
 */
import { type ClientToServerEvents, type ServerToClientEvents, SOCKET_PATH } from '@openpug/shared';
import type { Socket } from 'socket.io-client';
import { create } from 'zustand';
import { useSession } from '../session/store';

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

function authenticate(socket: AppSocket): void {
  const { token } = useSession.getState();
  if (token) socket.emit('authenticate', { key: token });
}

async function connect(): Promise<void> {
  const { io } = await import('socket.io-client');
  // The session may have ended, or another call connected, while the library was loading.
  if (!useSession.getState().token || getSocket()) return;
  const socket: AppSocket = io({ path: SOCKET_PATH, transports: ['websocket', 'polling'] });
  socket.on('connect', () => authenticate(socket));
  socket.on('disconnect', () => useSocketState.setState({ authenticated: false }));
  socket.on('authenticated', () => useSocketState.setState({ authenticated: true }));
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
