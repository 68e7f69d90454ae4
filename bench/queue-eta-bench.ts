/**
 * Queue ETA backtest (issue 18): a generated 8-week queue history, and the server's own fill
 * estimate (apps/server/src/modules/insights/eta.ts) asked every 7 minutes while players wait,
 * from the history before that moment only. Compared with what really happened: the time until
 * the next match start. Prints the median absolute error (and more) as a Markdown table.
 *
 *   node --import tsx bench/queue-eta-bench.ts            (also `npm run bench -- queue-eta`)
 *   options: --seed=18  --weeks=8
 *
 * The synthetic world (UTC = local time): players arrive as a Poisson process whose rate follows
 * the hour of day (quiet nights, busy evenings 19–23 h), busier weekends, and a random factor per
 * day (log-normal, σ 0.25: some evenings are busier than others); each leaves after an
 * exponential patience (mean 30 min) unless matched; when ten wait, an accept phase starts and
 * fails one time in ten (one player declines and leaves, nine keep their places).
 */
import { mulberry32 } from '../apps/server/src/modules/gameservers/simulator';
import { estimateFill, MINUTE_MS, type MinuteBucket } from '../apps/server/src/modules/insights/eta';

const arg = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const SEED = arg('seed', 18);
const WEEKS = arg('weeks', 8);
const SAMPLE_EVERY_MIN = 7;
const START = Date.UTC(2026, 8, 7); // a Monday

const random = mulberry32(SEED);
const exponential = (mean: number) => -Math.log(1 - random()) * mean;
const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
function poisson(mean: number): number {
  let k = 0;
  let p = Math.exp(-mean);
  let s = p;
  const u = random();
  while (u > s) {
    k++;
    p *= mean / k;
    s += p;
  }
  return k;
}

/** Players arriving per minute by hour of day (weekdays). */
const HOURLY = [
  0.3, 0.15, 0.05, 0.03, 0.02, 0.02, 0.03, 0.05, 0.1, 0.12, 0.15, 0.2, 0.25, 0.25, 0.3, 0.35, 0.45, 0.6, 0.8,
  1.1, 1.3, 1.2, 0.9, 0.5,
];
function arrivalRate(t: number, dayFactor: number): number {
  const d = new Date(t);
  const weekend = d.getUTCDay() === 0 || d.getUTCDay() === 6;
  const hour = d.getUTCHours();
  return HOURLY[hour] * dayFactor * (weekend ? (hour >= 12 && hour < 18 ? 2 : 1.3) : 1);
}

// ---- simulate --------------------------------------------------------------------------------
const end = START + WEEKS * 7 * 24 * 60 * MINUTE_MS;
const buckets: MinuteBucket[] = [];
const starts: number[] = [];
const samples: { t: number; count: number }[] = [];
let queue: number[] = []; // each waiting player's leave time
let dayFactor = 1;
for (let minute = START; minute < end; minute += MINUTE_MS) {
  if ((minute - START) % (24 * 60 * MINUTE_MS) === 0) dayFactor = Math.exp(0.25 * normal());
  if ((minute - START) % (SAMPLE_EVERY_MIN * MINUTE_MS) === 0) {
    queue = queue.filter((leave) => leave > minute);
    samples.push({ t: minute, count: queue.length });
  }
  const arrivals = Array.from(
    { length: poisson(arrivalRate(minute, dayFactor)) },
    () => minute + random() * MINUTE_MS,
  ).sort((a, b) => a - b);
  let bucketStarts = 0;
  for (const at of arrivals) {
    queue = queue.filter((leave) => leave > at);
    queue.push(at + exponential(30 * MINUTE_MS));
    if (queue.length < 10) continue;
    if (random() < 0.1) {
      queue.splice(Math.floor(random() * queue.length), 1); // one declines and leaves
      continue;
    }
    queue = [];
    starts.push(at);
    bucketStarts++;
  }
  if (bucketStarts > 0) buckets.push({ minute, matchStarts: bucketStarts });
}

// ---- backtest --------------------------------------------------------------------------------
interface Result {
  actual: number;
  estimate: number | null;
  baseline: number | null;
  prime: boolean;
  day: number;
}
const results: Result[] = [];
let nextStart = 0;
for (const { t, count } of samples) {
  if (count === 0) continue; // nobody waiting: the widget shows no estimate
  while (nextStart < starts.length && starts[nextStart] <= t) nextStart++;
  if (nextStart >= starts.length) break;
  const actual = (starts[nextStart] - t) / MINUTE_MS;
  const eta = estimateFill(buckets, START, t, count);
  // Baseline: the same rate over the whole past (every hour alike), to show what "at this hour" adds.
  const past = starts.filter((s) => s < t).length;
  const pastMin = (t - START) / MINUTE_MS;
  const baseline = past >= 3 ? Math.max(1, Math.round((10 - count) / ((10 * past) / pastMin))) : null;
  const hour = new Date(t).getUTCHours();
  results.push({
    actual,
    estimate: eta.status === 'estimate' ? eta.minutes : null,
    baseline,
    prime: hour >= 19 && hour < 23,
    day: Math.floor((t - START) / (24 * 60 * MINUTE_MS)),
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))];
const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '–');

function row(label: string, rs: Result[]) {
  const est = rs.filter((r) => r.estimate !== null);
  const errors = est.map((r) => Math.abs((r.estimate as number) - r.actual));
  const both = est.filter((r) => r.baseline !== null);
  const baseErrors = both.map((r) => Math.abs((r.baseline as number) - r.actual));
  const share = rs.length ? (100 * est.length) / rs.length : 0;
  console.log(
    `| ${label} | ${rs.length} | ${share.toFixed(0)} % | ${fmt(median(rs.map((r) => r.actual)))} min | **${fmt(median(errors))} min** | ${fmt(quantile(errors, 0.9))} min | ${fmt(median(baseErrors))} min |`,
  );
}

console.log(
  `Generated history: ${WEEKS} weeks, ${starts.length} match starts in ${buckets.length} minute rows (seed ${SEED}); a sample every ${SAMPLE_EVERY_MIN} min with someone waiting.\n`,
);
console.log(
  '| samples | n | estimated (else "not enough data") | median real wait | median abs. error | p90 abs. error | baseline (all hours alike) median abs. error |',
);
console.log('|---|---|---|---|---|---|---|');
row('all', results);
row(
  'first 5 days',
  results.filter((r) => r.day < 5),
);
row(
  'day 5 on',
  results.filter((r) => r.day >= 5),
);
row(
  'day 5 on, evenings 19–23 h',
  results.filter((r) => r.day >= 5 && r.prime),
);
row(
  'day 5 on, other hours',
  results.filter((r) => r.day >= 5 && !r.prime),
);
