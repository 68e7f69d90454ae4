import { describe, expect, it } from 'vitest';
import { countEvent, inQuietHours, QUEUE_ALERT_EVENTS, QUEUE_ALERT_STATES, queueAlertMachine } from './rules';

describe('the queue alert transitions table', () => {
  const expected: Record<string, [string, string[]]> = {
    'armed reached': ['fired', ['notify']],
    'armed reachedMuted': ['fired', []],
    'armed fell': ['armed', []],
    'armed popped': ['armed', []],
    'fired reached': ['fired', []],
    'fired reachedMuted': ['fired', []],
    'fired fell': ['armed', []],
    'fired popped': ['armed', []],
  };
  for (const state of QUEUE_ALERT_STATES)
    for (const event of QUEUE_ALERT_EVENTS)
      it(`${state} + ${event}`, () => {
        const next = queueAlertMachine.require(state, event);
        expect([next.to, next.effects]).toEqual(expected[`${state} ${event}`]);
      });
});

describe('countEvent', () => {
  it('is fell below the threshold, reached at or above it unless muted', () => {
    const free = { busy: false, quiet: false };
    expect(countEvent(6, 7, free)).toBe('fell');
    expect(countEvent(7, 7, free)).toBe('reached');
    expect(countEvent(9, 7, free)).toBe('reached');
    expect(countEvent(7, 7, { busy: true, quiet: false })).toBe('reachedMuted');
    expect(countEvent(7, 7, { busy: false, quiet: true })).toBe('reachedMuted');
    expect(countEvent(2, 7, { busy: true, quiet: true })).toBe('fell');
  });
});

describe('inQuietHours', () => {
  // 2026-06-01 21:30 UTC = 23:30 in Berlin (summer time), 17:30 in New York.
  const at = Date.UTC(2026, 5, 1, 21, 30);
  it('spans midnight when from > to, in the given zone', () => {
    expect(inQuietHours(at, { from: 22, to: 7 }, 'Europe/Berlin')).toBe(true);
    expect(inQuietHours(at, { from: 22, to: 7 }, 'America/New_York')).toBe(false);
    expect(inQuietHours(Date.UTC(2026, 5, 2, 5, 0), { from: 22, to: 7 }, 'Europe/Berlin')).toBe(false);
  });
  it('is a plain window when from < to; the end hour is not quiet', () => {
    expect(inQuietHours(at, { from: 17, to: 18 }, 'America/New_York')).toBe(true);
    expect(inQuietHours(at, { from: 16, to: 17 }, 'America/New_York')).toBe(false);
    expect(inQuietHours(at, null, 'Europe/Berlin')).toBe(false);
  });
});
