/**
 * The one way the web sends a feature event (packages/shared/src/socket.ts, `clientEvents`): with
 * an acknowledgement (`{ok:true,data}` | `{ok:false,msg:KEY}`), resolving with the data; a refusal
 * rejects with the key and, unless `silent`, shows it in the error dialog. The event name picks the
 * payload type, so a payload of another event does not compile.
 */
import type { ClientEventPayload, FeatureEvent, SocketReply } from '@openpug/shared';
import type { Socket } from 'socket.io-client';
import { setErrorMessage } from '../app-state';
import { type AppSocket, countOwedAck, whenReady } from './socket';

export class SocketRefusal extends Error {
  constructor(readonly key: string) {
    super(key);
  }
}

export interface EmitOptions {
  silent?: boolean;
  timeoutMs?: number;
}

/** `event, payload, options?` with the payload of that event (a union of one tuple per event). */
type EmitArgs = {
  [E in FeatureEvent]: [event: E, payload: ClientEventPayload<E>, options?: EmitOptions];
}[FeatureEvent];

/** `T` is the ack data the caller expects (the server handler's result). */
export function emitWithAck<T = unknown>(socket: AppSocket | null, ...args: EmitArgs): Promise<T> {
  const [event, payload, { silent = false, timeoutMs = 10_000 } = {}] = args;
  return new Promise<T>((resolve, reject) => {
    if (!socket) {
      reject(new SocketRefusal('SERVER_TIMEOUT_CONNECTION_ERROR'));
      return;
    }
    const timer = setTimeout(() => fail('SERVER_TIMEOUT_CONNECTION_ERROR'), timeoutMs);
    function fail(key: string) {
      clearTimeout(timer);
      if (!silent) setErrorMessage(key);
      reject(new SocketRefusal(key));
    }
    // Sent only on a ready connection: not into a reconnect (it would arrive before
    // `authenticate` is answered) nor to an instance that is shutting down.
    void whenReady(socket, timeoutMs).then((ready) => {
      if (!ready) return; // the timer answers
      // Socket.IO's typed `emit` cannot take the union of events; EmitArgs checked it above.
      const plain: Socket = socket;
      countOwedAck(socket, 1);
      plain.emit(event, payload, (reply: SocketReply | undefined) => {
        countOwedAck(socket, -1);
        clearTimeout(timer);
        if (reply?.ok) resolve(reply.data as T);
        else fail(reply?.msg ?? 'SERVER_TIMEOUT_CONNECTION_ERROR');
      });
    });
  });
}
