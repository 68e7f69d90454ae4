// `npm run bench`: builds if needed, then runs every benchmark in this folder in turn. Figures go
// to the console; bench/RESULTS.md records them with the command that made them.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ensureBuilt, ensureInstalled, run } from '../scripts/lib.mjs';

ensureInstalled();
ensureBuilt();
// Names pick benchmarks; `--flag=value` arguments go to each one run (e.g. `embedded-load --minutes=3`).
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const flags = process.argv.slice(2).filter((a) => a.startsWith('--'));
const benches = [
  ['landing-size', ['node', 'bench/landing-size.mjs']],
  ['landing-wire', ['node', 'bench/landing-wire.mjs']],
  ['startup', ['node', 'bench/startup.mjs']],
  ['chat-chunk', ['node', 'bench/chat-chunk.mjs', 'apps/web/dist']],
  ['queue', ['node', '--import', 'tsx', 'bench/queue-bench.ts']],
  ['matchmaking', ['node', '--import', 'tsx', 'bench/matchmaking-bench.ts']],
  ['leaderboard', ['node', '--import', 'tsx', 'bench/leaderboard-bench.ts']],
  ['matrix-latency', ['node', '--import', 'tsx', 'bench/matrix-latency.ts']],
  ['queue-eta', ['node', '--import', 'tsx', 'bench/queue-eta-bench.ts']],
  ['draft-fairness', ['node', '--import', 'tsx', 'bench/draft-fairness-bench.ts']],
  ['socket-flood', ['node', '--import', 'tsx', 'bench/socket-flood-bench.ts']],
  // Options from SOCKETS_N, SOCKETS_HOLD_S, SOCKETS_PROCS (default 19,000 sockets held 5 minutes).
  ['sockets', ['node', '--import', 'tsx', 'bench/sockets-bench.ts']],
  ['embedded-load', ['node', '--import', 'tsx', 'bench/embedded-load-bench.ts']],
  ['lighthouse', ['node', '--import', 'tsx', 'bench/lighthouse.ts']],
];
let failed = 0;
for (const [name, [cmd, ...args]] of benches) {
  if (only.length && !only.includes(name)) continue;
  const script = args[args.length - 1];
  if (!existsSync(path.resolve(import.meta.dirname, '..', script))) continue;
  console.log(`\n== ${name}`);
  if (run(cmd, [...args, ...flags]) !== 0) failed++;
}
process.exit(failed ? 1 : 0);
