/**
 * Draft fairness simulation (issue 18): synthetic ten-player drafts, picked by the rules of the
 * match room (apps/server/src/modules/matches: captains = the two highest-rated, the lower-rated
 * picks first, order ABBAABBA, the last player joins the team on turn), with the auto-pick on a
 * pick timeout by today's rule (`autoPick`, the highest-rated left) against the fair rule
 * (`fairestPick`). Same players, same timeouts for both rules. Prints the mean |p − 0.5| of the
 * final teams (p = the Elo logistic win probability, packages/shared/src/insights/index.ts).
 *
 *   node --import tsx bench/draft-fairness-bench.ts        (also `npm run bench -- draft-fairness`)
 *   options: --drafts=20000  --seed=18
 *
 * Players: Elo normal with mean 1000, σ 250 (clamped to 0..3000). Captains who pick themselves
 * take the highest-rated player left (what most captains do); each pick times out with the
 * probability of its row.
 */
import { teamWinProbability } from '@openpug/shared';
import { mulberry32 } from '../apps/server/src/modules/gameservers/simulator';
import { fairestPick } from '../apps/server/src/modules/matches/fairness';
import { autoPick, chooseCaptains, pickTurn } from '../apps/server/src/modules/matches/rules';

const arg = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const DRAFTS = arg('drafts', 20000);
const SEED = arg('seed', 18);
const ORDER = 'ABBAABBA';

interface P {
  id: string;
  elo: number;
}
type Rule = 'today' | 'fair';

/** One draft; `timeouts[i]` says whether pick i times out. Returns |p − 0.5| of the final teams. */
function draft(players: P[], timeouts: boolean[], rule: Rule, random: () => number): number {
  const captains = chooseCaptains(players, random);
  const teams = { teamOne: [captains.teamOne], teamTwo: [captains.teamTwo] } as Record<string, string[]>;
  const byId = new Map(players.map((p) => [p.id, p]));
  let pool = players.filter((p) => p.id !== captains.teamOne && p.id !== captains.teamTwo);
  const elos = (team: string) => teams[team].map((id) => (byId.get(id) as P).elo);
  for (let i = 0; pool.length > 0; i++) {
    const turn = pickTurn(ORDER, i) ?? 'teamOne';
    const other = turn === 'teamOne' ? 'teamTwo' : 'teamOne';
    const chosen =
      pool.length === 1 || !timeouts[i]
        ? (autoPick(pool) as P) // a captain picks the best left; the last player has no choice
        : rule === 'today'
          ? (autoPick(pool) as P)
          : (fairestPick(elos(turn), elos(other), pool) as P);
    teams[turn].push(chosen.id);
    pool = pool.filter((p) => p !== chosen);
  }
  return Math.abs(teamWinProbability(elos('teamOne'), elos('teamTwo')) - 0.5);
}

const scenarios = [
  { label: 'every pick times out', rate: 1 },
  { label: '30 % of picks time out', rate: 0.3 },
  { label: '10 % of picks time out', rate: 0.1 },
];
console.log(`${DRAFTS} drafts per row, players' Elo ~ N(1000, 250), seed ${SEED}.\n`);
console.log(
  '| scenario | mean \\|p − 0.5\\| today (highest-rated) | mean \\|p − 0.5\\| fair auto-pick | change | drafts with \\|p − 0.5\\| > 0.1: today / fair |',
);
console.log('|---|---|---|---|---|');
for (const { label, rate } of scenarios) {
  const random = mulberry32(SEED);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  let today = 0;
  let fair = 0;
  let todayOff = 0;
  let fairOff = 0;
  for (let d = 0; d < DRAFTS; d++) {
    const players = Array.from({ length: 10 }, (_, i) => ({
      id: `p${i}`,
      elo: Math.round(Math.min(3000, Math.max(0, 1000 + 250 * normal()))),
    }));
    const timeouts = Array.from({ length: 8 }, () => random() < rate);
    // The captains' coin flip (equal top Elo) gets the same random draw in both runs.
    const tieSeed = random() * 2 ** 32;
    const a = draft(players, timeouts, 'today', mulberry32(tieSeed));
    const b = draft(players, timeouts, 'fair', mulberry32(tieSeed));
    today += a;
    fair += b;
    if (a > 0.1) todayOff++;
    if (b > 0.1) fairOff++;
  }
  const pct = (x: number) => `${((100 * x) / DRAFTS).toFixed(1)} %`;
  console.log(
    `| ${label} | ${(today / DRAFTS).toFixed(4)} | **${(fair / DRAFTS).toFixed(4)}** | ${(((fair - today) / today) * 100).toFixed(0)} % | ${pct(todayOff)} / ${pct(fairOff)} |`,
  );
}
