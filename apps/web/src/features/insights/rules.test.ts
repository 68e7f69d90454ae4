import { describe, expect, it } from 'vitest';
import { busiestCells, heatLevel, percentPair, weekdayNames } from './rules';

describe('insights rules', () => {
  it('grades cells in quarters of the busiest one; nothing is level 0', () => {
    expect([0, 1, 2, 3, 4, 8].map((c) => heatLevel(c, 8))).toEqual([0, 1, 1, 2, 2, 4]);
    expect(heatLevel(3, 0)).toBe(0);
  });

  it('names the busiest cells, busiest first, without empty ones', () => {
    const cells = Array.from({ length: 7 }, () => new Array(24).fill(0));
    cells[4][20] = 5;
    cells[5][21] = 5;
    cells[0][19] = 2;
    expect(busiestCells(cells, 5)).toEqual([
      { day: 4, hour: 20, count: 5 },
      { day: 5, hour: 21, count: 5 },
      { day: 0, hour: 19, count: 2 },
    ]);
  });

  it('weekdays start on Monday in both languages; percentages add up to 100', () => {
    expect(weekdayNames('en')[0]).toBe('Mon');
    expect(weekdayNames('de')[6]).toMatch(/^So/);
    expect(percentPair(0.545)).toEqual([55, 45]);
    expect(percentPair(0.5)).toEqual([50, 50]);
  });
});
