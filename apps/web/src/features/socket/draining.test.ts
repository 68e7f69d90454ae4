/**
 * A rolling restart seen from the client (docs/contract.md, Socket): on `server-draining` the app
 * socket stops sending, waits for the acks it is owed, then drops its transport; an event sent in
 * between waits for the next authenticated connection instead of getting lost.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emitWithAck } from './emit';
import { type AppSocket, followDraining, useSocketState } from './socket';

type Ack = (reply: { ok: boolean; data?: unknown; msg?: string }) => void;

/** Just enough of a Socket.IO client socket: listeners, emitted events with their acks, the engine. */
function fakeSocket() {
  const listeners = new Map<string, ((...args: unknown[]) => void)[]>();
  const sent: { event: string; ack: Ack }[] = [];
  const engineClose = vi.fn();
  const socket = {
    connected: true,
    io: { engine: { close: engineClose } },
    on(event: string, fn: (...args: unknown[]) => void) {
      listeners.set(event, [...(listeners.get(event) ?? []), fn]);
    },
    emit(event: string, _payload: unknown, ack: Ack) {
      sent.push({ event, ack });
    },
  };
  const fire = (event: string) => {
    for (const fn of listeners.get(event) ?? []) fn();
  };
  return { socket: socket as unknown as AppSocket & { connected: boolean }, sent, engineClose, fire };
}

afterEach(() => useSocketState.setState({ socket: null, authenticated: false }));

describe('server-draining', () => {
  it('waits for the owed ack before dropping the transport', async () => {
    const f = fakeSocket();
    followDraining(f.socket);
    useSocketState.setState({ socket: f.socket, authenticated: true });

    const answered = emitWithAck<{ inQueue: boolean }>(f.socket, 'queue-message', { event: 'join' });
    await vi.waitFor(() => expect(f.sent).toHaveLength(1));
    f.fire('server-draining');
    expect(useSocketState.getState().authenticated).toBe(false);
    await new Promise((r) => setTimeout(r, 100));
    expect(f.engineClose).not.toHaveBeenCalled(); // the join's ack is still owed

    f.sent[0].ack({ ok: true, data: { inQueue: true } });
    await expect(answered).resolves.toEqual({ inQueue: true });
    await vi.waitFor(() => expect(f.engineClose).toHaveBeenCalledTimes(1));
  });

  it('holds an event sent while draining until the next connection is authenticated', async () => {
    const f = fakeSocket();
    followDraining(f.socket);
    useSocketState.setState({ socket: f.socket, authenticated: true });
    f.fire('server-draining');
    await vi.waitFor(() => expect(f.engineClose).toHaveBeenCalled()); // nothing owed: at once

    const answered = emitWithAck(f.socket, 'match-message', { event: 'get-state', data: { matchId: 'm1' } });
    f.socket.connected = false;
    await new Promise((r) => setTimeout(r, 150));
    expect(f.sent).toHaveLength(0);

    f.socket.connected = true;
    f.fire('connect'); // reconnected (to another instance), not yet authenticated
    await new Promise((r) => setTimeout(r, 150));
    expect(f.sent).toHaveLength(0);

    useSocketState.setState({ authenticated: true });
    await vi.waitFor(() => expect(f.sent).toHaveLength(1));
    f.sent[0].ack({ ok: true, data: 'state' });
    await expect(answered).resolves.toBe('state');
  });

  it('gives up after the timeout with the connection error key', async () => {
    const f = fakeSocket();
    followDraining(f.socket);
    useSocketState.setState({ socket: f.socket, authenticated: false });
    await expect(
      emitWithAck(f.socket, 'queue-message', { event: 'join' }, { silent: true, timeoutMs: 200 }),
    ).rejects.toMatchObject({ key: 'SERVER_TIMEOUT_CONNECTION_ERROR' });
    expect(f.sent).toHaveLength(0);
  });
});
