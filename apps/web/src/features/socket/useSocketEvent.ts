import type { ServerToClientEvents } from '@openpug/shared';
import { useEffect, useRef } from 'react';
import { useSocketState } from './socket';

/**
 * Runs `handler` for every `event` from the server while the component is mounted and a socket
 * exists (i.e. while logged in). The latest handler is used without re-subscribing.
 */
export function useSocketEvent<E extends keyof ServerToClientEvents>(
  event: E,
  handler: ServerToClientEvents[E],
): void {
  const socket = useSocketState((s) => s.socket);
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    if (!socket) return;
    const listener = ((...args: Parameters<ServerToClientEvents[E]>) =>
      (latest.current as (...a: unknown[]) => void)(...args)) as ServerToClientEvents[E];
    // Socket.IO's typed `on` cannot narrow a generic event name; the map above keeps it honest.
    const untyped = socket as unknown as {
      on(e: string, l: unknown): void;
      off(e: string, l: unknown): void;
    };
    untyped.on(event, listener);
    return () => untyped.off(event, listener);
  }, [socket, event]);
}
