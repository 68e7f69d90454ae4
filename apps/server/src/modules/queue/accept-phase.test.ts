/** Every cell of the accept-phase table: the legal ones, and the refusal of all others. */
import { describe, expect, it } from 'vitest';
import {
  ACCEPT_PHASE_EVENTS,
  ACCEPT_PHASE_INITIAL,
  ACCEPT_PHASE_STATUSES,
  ACCEPT_PHASE_TRANSITIONS,
  acceptPhase,
  entails,
} from './accept-phase';

/** "status event" → "next effects…", written out independently of the table. */
const legal: Record<string, string> = {
  'open accept': 'open',
  'open complete': 'matched cancelDeadline',
  'open decline': 'declined cancelDeadline,recordMiss,formPhases',
  'open leave': 'open recordMiss',
  'open remove': 'open',
  'open timeout': 'timedout recordMiss,formPhases',
};

const cells = ACCEPT_PHASE_STATUSES.flatMap((status) =>
  ACCEPT_PHASE_EVENTS.map((event) => ({ status, event })),
);

describe('accept phase table', () => {
  it('has a row for every status and starts open', () => {
    expect(Object.keys(ACCEPT_PHASE_TRANSITIONS).sort()).toEqual([...ACCEPT_PHASE_STATUSES].sort());
    expect(ACCEPT_PHASE_INITIAL).toBe('open');
  });

  it('names only statuses and events that exist in the list of legal cells', () => {
    const known = new Set(cells.map((c) => `${c.status} ${c.event}`));
    expect(Object.keys(legal).filter((k) => !known.has(k))).toEqual([]);
  });

  it.each(cells)('$status × $event', ({ status, event }) => {
    const expected = legal[`${status} ${event}`];
    const outcome = acceptPhase.transition(status, event);
    if (expected === undefined) {
      expect(outcome).toEqual({ ok: false, key: 'NO_ACCEPT_PHASE' });
      expect(() => acceptPhase.require(status, event)).toThrow(
        expect.objectContaining({ status: 409, key: 'NO_ACCEPT_PHASE' }),
      );
      return;
    }
    if (!outcome.ok) throw new Error(`${status} × ${event} refused, expected ${expected}`);
    expect([outcome.to, outcome.effects.join(',')].filter(Boolean).join(' ')).toBe(expected);
  });

  it('a phase ends once: every way out of open leads to a status with no way out', () => {
    for (const event of ACCEPT_PHASE_EVENTS) {
      const outcome = acceptPhase.require('open', event);
      if (outcome.to === 'open') continue;
      for (const again of ACCEPT_PHASE_EVENTS)
        expect(acceptPhase.transition(outcome.to, again).ok).toBe(false);
    }
  });

  it('entails reads the effects of a transition', () => {
    const timeout = acceptPhase.require('open', 'timeout');
    expect(entails(timeout, 'recordMiss')).toBe(true);
    expect(entails(timeout, 'cancelDeadline')).toBe(false);
  });
});
