import type { MatchResultPayload } from '@openpug/shared';

/** What the result dialog says (docs/contract.md §4 step 6): the real Elo change, signed, and the new Elo. */
export function describeResult(result: Pick<MatchResultPayload, 'victory' | 'oldElo' | 'newElo'>): {
  key: 'matchResult.win' | 'matchResult.loss';
  change: number;
  /** `+12`, `−10`, `±0`. */
  signed: string;
  newElo: number;
} {
  const change = result.newElo - result.oldElo;
  const signed = change > 0 ? `+${change}` : change < 0 ? `−${Math.abs(change)}` : '±0';
  return {
    key: result.victory ? 'matchResult.win' : 'matchResult.loss',
    change,
    signed,
    newElo: result.newElo,
  };
}
