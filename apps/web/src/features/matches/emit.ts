/**
 * Socket calls with acknowledgements (`{ok:true,data}` | `{ok:false,msg:KEY}`): resolves with the
 * data; a refusal rejects with the key and, unless `silent`, shows it in the error dialog.
 */
import type { ClientToServerEvents } from '@openpug/shared';
import { setErrorMessage } from '../app-state/store';
import { type AppSocket, countOwedAck, whenReady } from '../socket/socket';

export class SocketRefusal extends Error {
  constructor(readonly key: string) {
    super(key);
  }
}

type Reply = { ok: true; data: unknown } | { ok: false; msg: string };

export function emitWithAck<T>(
  socket: AppSocket | null,
  event:
    | 'queue-message'
    | 'join-match'
    | 'leave-match'
    | 'match-message'
    | 'substitute-accept'
    | 'substitute-request',
  payload: Parameters<ClientToServerEvents[typeof event]>[0],
  { silent = false, timeoutMs = 10_000 }: { silent?: boolean; timeoutMs?: number } = {},
): Promise<T> {
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
      const untyped = socket as unknown as { emit(e: string, p: unknown, ack: (r: Reply) => void): void };
      countOwedAck(socket, 1);
      untyped.emit(event, payload, (reply) => {
        countOwedAck(socket, -1);
        clearTimeout(timer);
        if (reply?.ok) resolve(reply.data as T);
        else fail(reply?.msg ?? 'SERVER_TIMEOUT_CONNECTION_ERROR');
      });
    });
  });
}
