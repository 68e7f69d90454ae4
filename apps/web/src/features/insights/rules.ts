/** Pure helpers of the insights views (unit-tested). */

/** Five levels of a heatmap cell: 0 for none, then quarters of the busiest cell. */
export function heatLevel(count: number, max: number): 0 | 1 | 2 | 3 | 4 {
  if (count <= 0 || max <= 0) return 0;
  return Math.min(4, Math.max(1, Math.ceil((4 * count) / max))) as 1 | 2 | 3 | 4;
}

/** The busiest cells (at most `n`, none empty), busiest first; ties by weekday then hour. */
export function busiestCells(
  cells: readonly (readonly number[])[],
  n = 3,
): { day: number; hour: number; count: number }[] {
  const all = cells.flatMap((row, day) => row.map((count, hour) => ({ day, hour, count })));
  return all
    .filter((c) => c.count > 0)
    .sort((a, b) => b.count - a.count || a.day - b.day || a.hour - b.hour)
    .slice(0, n);
}

/** Short weekday names in `locale`, Monday first. */
export function weekdayNames(locale: string): string[] {
  const format = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' });
  // 2024-01-01 was a Monday.
  return Array.from({ length: 7 }, (_, i) => format.format(Date.UTC(2024, 0, 1 + i)));
}

/** Win chances in whole percent that add up to 100. */
export function percentPair(p: number): [number, number] {
  const one = Math.round(p * 100);
  return [one, 100 - one];
}
