/**
 * The one way the web listens to the server over a socket, typed by the shared event map
 * (packages/shared/src/socket.ts): `onServerEvents(socket, handlers)` outside components,
 * `useSocketEvent(event, handler)` inside them (on the app socket while logged in).
 */
import type { ServerEvent, ServerToClientEvents } from '@openpug/shared';
import { useEffect, useRef } from 'react';
import type { Socket } from 'socket.io-client';
import { type AppSocket, useSocketState } from './socket';

/** Handlers by server event, each typed by its payload. */
export type ServerEventHandlers = { [E in ServerEvent]?: ServerToClientEvents[E] };

/**
 * Socket.IO's typed `on`/`off` cannot take an event name that is a type parameter or a union (its
 * listener type is a conditional type left unresolved), so the subscription goes through the
 * socket's plain emitter. The exported signatures are what check names and payloads.
 */
function subscribe(
  socket: AppSocket,
  event: string,
  listener: ServerToClientEvents[ServerEvent],
): () => void {
  const plain: Socket = socket;
  plain.on(event, listener);
  return () => void plain.off(event, listener);
}

/** Subscribes each handler to its event on `socket`; returns the unsubscribe. */
export function onServerEvents(socket: AppSocket, handlers: ServerEventHandlers): () => void {
  const offs = Object.entries(handlers).map(([event, handler]) =>
    handler ? subscribe(socket, event, handler) : () => undefined,
  );
  return () => {
    for (const off of offs) off();
  };
}

/**
 * Runs `handler` for every `event` from the server while the component is mounted and the app
 * socket exists (i.e. while logged in). The latest handler is used without re-subscribing.
 */
export function useSocketEvent<E extends ServerEvent>(event: E, handler: ServerToClientEvents[E]): void {
  const socket = useSocketState((s) => s.socket);
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    if (!socket) return;
    return subscribe(socket, event, (...args: unknown[]) => {
      Reflect.apply(latest.current, undefined, args);
    });
  }, [socket, event]);
}
