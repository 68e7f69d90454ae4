/**
 * The web's one way to listen and to emit, typed by the shared event map: handlers run for their
 * event only and are gone after the unsubscribe; a wrong name or payload does not compile.
 */
import { describe, expect, it, vi } from 'vitest';
import { emitWithAck } from './emit';
import { onServerEvents } from './events';
import type { AppSocket } from './socket';

/** Just enough of a Socket.IO client socket: named listeners that can be fired. */
function fakeSocket() {
  const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
  const socket = {
    on(event: string, fn: (...args: unknown[]) => void) {
      listeners.set(event, (listeners.get(event) ?? new Set()).add(fn));
    },
    off(event: string, fn: (...args: unknown[]) => void) {
      listeners.get(event)?.delete(fn);
    },
  };
  const fire = (event: string, payload: unknown) => {
    for (const fn of listeners.get(event) ?? []) fn(payload);
  };
  const count = () => [...listeners.values()].reduce((n, set) => n + set.size, 0);
  return { socket: socket as unknown as AppSocket, fire, count };
}

describe('onServerEvents', () => {
  it('runs each handler for its own event until unsubscribed', () => {
    const f = fakeSocket();
    const counts: number[] = [];
    const matches: string[] = [];
    const queueUpdate = ({ count }: { count: number }) => counts.push(count);
    const queueMatch = ({ matchId }: { matchId: string }) => matches.push(matchId);
    const off = onServerEvents(f.socket, {
      PUBLIC_QUEUE_UPDATE: queueUpdate,
      PRIVATE_QUEUE_MATCH: queueMatch,
    });
    f.fire('PUBLIC_QUEUE_UPDATE', { count: 3 });
    f.fire('PRIVATE_QUEUE_MATCH', { matchId: 'm1' });
    f.fire('MATCH_STATE', { _id: 'm1' });
    expect(counts).toEqual([3]);
    expect(matches).toEqual(['m1']);
    off();
    expect(f.count()).toBe(0);
    f.fire('PUBLIC_QUEUE_UPDATE', { count: 4 });
    expect(counts).toEqual([3]);
  });

  it('types handlers by the shared map', () => {
    const f = fakeSocket();
    const wrongPayload = (p: { matchId: string }) => p.matchId;
    const any = () => undefined;
    // @ts-expect-error: PUBLIC_QUEUE_UPDATE carries {count}, not {matchId}
    const off = onServerEvents(f.socket, { PUBLIC_QUEUE_UPDATE: wrongPayload });
    // @ts-expect-error: no such server event
    const off2 = onServerEvents(f.socket, { PUBLIC_QUEUE_UPDATES: any });
    off();
    off2();
  });
});

describe('emitWithAck', () => {
  it('takes the payload of the named event only', async () => {
    const silent = { silent: true };
    const refused = vi.fn();
    // Without a socket each call is refused at once; what matters here is that it compiles or not.
    await emitWithAck(null, 'queue-message', { event: 'join' }, silent).catch(refused);
    // @ts-expect-error: join-match carries {matchId}, not a queue event
    await emitWithAck(null, 'join-match', { event: 'join' }, silent).catch(refused);
    // @ts-expect-error: not a queue event
    await emitWithAck(null, 'queue-message', { event: 'jump' }, silent).catch(refused);
    // @ts-expect-error: no such client event
    await emitWithAck(null, 'queue-mesage', { event: 'join' }, silent).catch(refused);
    // @ts-expect-error: the handshake is the connection's own, not a feature event
    await emitWithAck(null, 'authenticate', { key: 'k' }, silent).catch(refused);
    expect(refused).toHaveBeenCalledTimes(5);
  });
});
