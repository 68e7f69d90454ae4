import { describe, expect, it } from 'vitest';
import { DAY_MS, ETA_MIN_DAYS, ETA_MIN_STARTS, estimateFill, MINUTE_MS } from './eta';

const NOW = Date.UTC(2026, 10, 28, 20);
const starts = (days: number, perDay: number, offset = 0) =>
  Array.from({ length: days }, (_, k) =>
    Array.from({ length: perDay }, (_, i) => ({
      minute: NOW - (k + 1) * DAY_MS + offset + i * MINUTE_MS,
      matchStarts: 1,
    })),
  ).flat();

describe('fill estimate (pure)', () => {
  it('needs ETA_MIN_DAYS covered days and ETA_MIN_STARTS starts, else says "not enough data"', () => {
    expect(ETA_MIN_DAYS).toBe(5);
    expect(ETA_MIN_STARTS).toBe(10);
    const fourDays = NOW - 4 * DAY_MS - 30 * MINUTE_MS;
    expect(estimateFill(starts(4, 5), fourDays, NOW, 0)).toEqual({
      status: 'notEnoughData',
      days: 4,
      count: 0,
    });
    const eightDays = NOW - 8 * DAY_MS - 30 * MINUTE_MS;
    expect(estimateFill(starts(8, 1), eightDays, NOW, 0)).toEqual({
      status: 'notEnoughData',
      days: 8,
      count: 0,
    });
    // 8 days × 2 starts = 16 starts in 480 min: 1/3 player a minute; 7 missing players take 21 min.
    expect(estimateFill(starts(8, 2), eightDays, NOW, 3)).toEqual({
      status: 'estimate',
      minutes: 21,
      days: 8,
      count: 3,
    });
  });

  it('counts only starts within ±30 min of this hour, and never less than a minute', () => {
    const eightDays = NOW - 8 * DAY_MS - 30 * MINUTE_MS;
    const outside = starts(8, 5, 31 * MINUTE_MS);
    expect(estimateFill(outside, eightDays, NOW, 0).status).toBe('notEnoughData');
    const edge = starts(8, 5, -30 * MINUTE_MS); // the window's first minute is in
    expect(estimateFill(edge, eightDays, NOW, 9)).toEqual({
      status: 'estimate',
      minutes: 1,
      days: 8,
      count: 9,
    });
  });
});
