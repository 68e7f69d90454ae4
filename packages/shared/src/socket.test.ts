/**
 * The socket map at the type level: each client event's payload type comes from its schema, and
 * Socket.IO's event maps are derived from it (a wrong name or payload does not compile).
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type ClientEventPayload,
  type ClientToServerEvents,
  clientEvents,
  type FeatureEvent,
  handshakeEvents,
  type ServerEventPayload,
} from './index';

describe('clientEvents', () => {
  it('types each payload from its schema', () => {
    expectTypeOf<ClientEventPayload<'queue-message'>>().toEqualTypeOf<{
      event: 'join' | 'leave' | 'ready' | 'decline';
    }>();
    expectTypeOf<ClientEventPayload<'join-social'>>().toEqualTypeOf<string | { userId: string }>();
    expectTypeOf<Parameters<ClientToServerEvents['join-match']>[0]>().toEqualTypeOf<{ matchId: string }>();
    expectTypeOf<ServerEventPayload<'PUBLIC_QUEUE_UPDATE'>>().toEqualTypeOf<{ count: number }>();
  });

  it('refuses, at compile time, a payload of another event and a name outside the map', () => {
    // @ts-expect-error: join-match carries {matchId}, not a queue event
    const wrongPayload: Parameters<ClientToServerEvents['join-match']>[0] = { event: 'join' };
    // @ts-expect-error: no such event
    const unknownEvent: FeatureEvent = 'queue-mesage';
    expect([wrongPayload, unknownEvent]).toHaveLength(2);
  });

  it('validates at run time with the same schemas', () => {
    expect(clientEvents['queue-message'].safeParse({ event: 'jump' }).success).toBe(false);
    const id = '0b4f3c1e-8d5a-4f7e-9c2b-1a2b3c4d5e6f';
    expect(clientEvents['join-social'].parse({ userId: id })).toBe(id);
    expect(clientEvents['join-social'].parse(id)).toBe(id);
    expect(handshakeEvents.every((e) => e in clientEvents)).toBe(true);
  });
});
