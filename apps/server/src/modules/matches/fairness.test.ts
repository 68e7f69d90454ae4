import { teamWinProbability } from '@openpug/shared';
import { describe, expect, it } from 'vitest';
import { bestFinalImbalance, fairestPick } from './fairness';
import { autoPick } from './rules';

const pool = (...elos: number[]) => elos.map((elo, i) => ({ id: `p${i}`, elo }));

describe('win probability (Elo logistic, docs/contract.md §9)', () => {
  it('is 1 / (1 + 10^((R2 − R1) / 400)) of the mean Elo', () => {
    expect(teamWinProbability([1000], [1000])).toBe(0.5);
    expect(teamWinProbability([1400], [1000])).toBeCloseTo(10 / 11, 12);
    expect(teamWinProbability([1200, 1600], [1000, 1000])).toBeCloseTo(10 / 11, 12);
    expect(teamWinProbability([1000], [1400]) + teamWinProbability([1400], [1000])).toBeCloseTo(1, 12);
    expect(teamWinProbability([], [1000])).toBe(0.5);
  });
});

describe('fair auto-pick', () => {
  it('an ahead team on turn gets a weaker player than the highest-rated', () => {
    // Team one (1400, 1350) is far ahead of team two (1500, 1000, 900): it should not get 800.
    const left = pool(800, 700, 650, 300, 250);
    const pick = fairestPick([1400, 1350], [1500, 1000, 900], left);
    expect(autoPick(left)?.elo).toBe(800);
    expect(pick?.elo).not.toBe(800);
    // Whatever it takes, the best final split is at least as fair as after the highest-rated pick.
    const rest = (p: { id: string }) => left.filter((x) => x.id !== p.id).map((x) => x.elo);
    const high = autoPick(left) as { id: string; elo: number };
    const chosen = pick as { id: string; elo: number };
    expect(bestFinalImbalance([1400, 1350, chosen.elo], [1500, 1000, 900], rest(chosen))).toBeLessThanOrEqual(
      bestFinalImbalance([1400, 1350, high.elo], [1500, 1000, 900], rest(high)),
    );
  });

  it('a team behind takes the strongest; ties go to the higher Elo, then the earlier in the list', () => {
    expect(fairestPick([1000], [1400], pool(1300, 900, 800))?.elo).toBe(1300);
    const same = pool(500, 500);
    expect(fairestPick([500], [500], same)?.id).toBe('p0');
    expect(fairestPick([1000], [1000], [])).toBeNull();
  });

  it('looks ahead to the best split of the players left', () => {
    // Team two takes the last open slots: the final teams are exactly this split.
    expect(bestFinalImbalance([1000, 1000, 1000, 1000], [1000, 1000, 1000, 1000], [1200, 800])).toBeCloseTo(
      Math.abs(teamWinProbability([1000, 1000, 1000, 1000, 800], [1000, 1000, 1000, 1000, 1200]) - 0.5),
      12,
    );
    expect(bestFinalImbalance([1000], [1000], [900, 900, 1100, 1100])).toBe(0);
  });
});
