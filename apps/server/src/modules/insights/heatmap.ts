/** The weekday × hour heatmap of match starts (docs/contract.md §4 "Queue insights"), pure. */
import type { StartsHeatmap } from '@openpug/shared';
import type { MinuteBucket } from './eta';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** Counts `buckets`' match starts by weekday (Monday first) and hour of day in time zone `tz`. */
export function startsHeatmap(
  buckets: readonly MinuteBucket[],
  tz: string,
  from: number,
  to: number,
): StartsHeatmap {
  const cells = Array.from({ length: 7 }, () => new Array<number>(24).fill(0));
  // hourCycle h23: midnight is 0, not 24 (which `hour12: false` gives in some runtimes).
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    weekday: 'short',
    hour: 'numeric',
    hourCycle: 'h23',
  });
  let total = 0;
  for (const b of buckets) {
    if (b.matchStarts <= 0 || b.minute < from || b.minute >= to) continue;
    const parts = format.formatToParts(b.minute);
    const day = WEEKDAYS.indexOf(parts.find((p) => p.type === 'weekday')?.value ?? '');
    const hour = Number(parts.find((p) => p.type === 'hour')?.value);
    if (day < 0 || !(hour >= 0 && hour < 24)) continue;
    cells[day][hour] += b.matchStarts;
    total += b.matchStarts;
  }
  return { tz, from, to, cells, total };
}
