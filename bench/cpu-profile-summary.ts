/**
 * Where a thread's time went, from a V8 .cpuprofile (matchmaking-bench --cpu-prof): self time by
 * owner (each npm package, the app's own modules, Node's internals, GC, idle), then the costliest
 * functions, and with --under=NAME the share of time spent inside any frame whose function or
 * file contains NAME (inclusive: what a caller costs with everything it calls).
 *
 *   node --import tsx bench/cpu-profile-summary.ts FILE.cpuprofile [--top=25] [--under=joinMatchRoom,...]
 *
 * --origin=US --window=FROM-TO keeps only the samples taken FROM..TO seconds after US on the
 * monotonic clock (the load bench prints its run's start as that origin with --cpu-prof).
 *
 * --nearest=TEXT charges each sample to the nearest frame on its stack whose file contains TEXT
 * (e.g. server/dist: which of the app's functions a library's or a syscall's time was spent for);
 * a sample with no such frame is named by its outermost frame. Stacks begin where an async
 * function resumed, so this names the code that ran, not the request it ran for.
 *
 * The profile's clock is the wall clock: a thread descheduled inside a syscall (a write that woke
 * PostgreSQL on a busy machine) is sampled in that syscall.
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const file = process.argv[2];
if (!file) throw new Error('usage: cpu-profile-summary.ts FILE.cpuprofile [--top=N] [--under=a,b]');
const opt = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const TOP = Number(opt('top') ?? 25);
const UNDER = (opt('under') ?? '').split(',').filter(Boolean);
const NEAREST = opt('nearest');
const ORIGIN = Number(opt('origin') ?? Number.NaN);
const [FROM_S, TO_S] = (opt('window') ?? '-').split('-').map((x) => (x === '' ? Number.NaN : Number(x)));
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
/** Whether a sample stamped `at` (monotonic µs) falls in the --window, if one was asked for. */
const inWindow = (at: number) =>
  Number.isNaN(ORIGIN) ||
  ((Number.isNaN(FROM_S) || at >= ORIGIN + FROM_S * 1e6) && (Number.isNaN(TO_S) || at < ORIGIN + TO_S * 1e6));

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

/** Who a frame belongs to: an npm package, the app (its workspace folder), Node, or V8's own. */
function owner(n: Node): string {
  const { url, functionName } = n.callFrame;
  if (!url) return `(${functionName || 'native'})`.replace(/^\(\((.*)\)\)$/, '($1)');
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return 'node internals';
  const app = url.match(/\/(apps\/[^/]+|packages\/[^/]+|bench)\//);
  return app ? app[1] : url;
}

const selfUs = new Map<number, number>();
let total = 0;
let at = profile.startTime;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  at += dt;
  if (!inWindow(at)) return;
  selfUs.set(id, (selfUs.get(id) ?? 0) + dt);
  total += dt;
});

const sum = (key: (n: Node) => string) => {
  const m = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const k = key(byId.get(id) as Node);
    m.set(k, (m.get(k) ?? 0) + us);
  }
  return [...m].sort((a, b) => b[1] - a[1]);
};
const row = (k: string, us: number) =>
  `${(us / 1000).toFixed(0).padStart(7)} ms ${((us / total) * 100).toFixed(1).padStart(5)} %  ${k}`;

console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled`);
console.log('\nself time by owner:');
for (const [k, us] of sum(owner).slice(0, TOP)) console.log(row(k, us));
console.log('\nself time by function:');
const where = (n: Node) =>
  `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(node_modules|apps|packages)\//, '')}:${n.callFrame.lineNumber + 1}`;
for (const [k, us] of sum(where).slice(0, TOP)) console.log(row(k, us));

/** The frames of a sample's stack, leaf first. */
function* stack(id: number) {
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur))
    yield byId.get(cur) as Node;
}

if (NEAREST) {
  console.log(`\nself time by the nearest frame in a file containing ${NEAREST}:`);
  const charged = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const frames = [...stack(id)];
    const mine = frames.find((n) => n.callFrame.url.includes(NEAREST));
    const outer = frames.filter((n) => n.callFrame.url && !n.callFrame.url.startsWith('node:')).at(-1);
    const k = mine ? where(mine) : `[no such frame] ${where(outer ?? frames[0])}`;
    charged.set(k, (charged.get(k) ?? 0) + us);
  }
  for (const [k, us] of [...charged].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(row(k, us));
}

if (UNDER.length) {
  console.log('\ninclusive time under frames matching:');
  for (const name of UNDER) {
    let us = 0;
    for (const [id, t] of selfUs) {
      for (const { callFrame: f } of stack(id)) {
        if (f.functionName.includes(name) || f.url.includes(name)) {
          us += t;
          break;
        }
      }
    }
    console.log(row(name, us));
  }
}
