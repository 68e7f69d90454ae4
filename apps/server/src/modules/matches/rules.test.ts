import { describe, expect, it } from 'vitest';
import { isMapOver, simulateRound } from '../gameservers/simulator';
import { eloAfter, eloDelta } from '../rating/elo';
import { autoPick, banTurn, chooseCaptains, DEFAULT_MAP_POOL, pickTurn, remainingMaps } from './rules';

describe('match rules', () => {
  it('makes the two highest-rated players captains; the lower-rated one leads team one', () => {
    const players = [
      { id: 'a', elo: 200 },
      { id: 'b', elo: 260 },
      { id: 'c', elo: 240 },
      { id: 'd', elo: 190 },
    ];
    expect(chooseCaptains(players)).toEqual({ teamOne: 'c', teamTwo: 'b' });
  });

  it('breaks captain ties at random', () => {
    const players = [
      { id: 'a', elo: 300 },
      { id: 'b', elo: 300 },
      { id: 'c', elo: 300 },
      { id: 'd', elo: 100 },
    ];
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const c = chooseCaptains(players);
      expect(['a', 'b', 'c']).toContain(c.teamOne);
      expect(c.teamTwo).not.toBe('d');
      seen.add(c.teamOne);
    }
    expect(seen.size).toBe(3);
  });

  it('follows the pick order ABBAABBA and ends after eight picks', () => {
    const turns = Array.from({ length: 9 }, (_, i) => pickTurn('ABBAABBA', i));
    expect(turns).toEqual([
      'teamOne',
      'teamTwo',
      'teamTwo',
      'teamOne',
      'teamOne',
      'teamTwo',
      'teamTwo',
      'teamOne',
      null,
    ]);
  });

  it('auto-picks the highest-rated player left', () => {
    expect(
      autoPick([
        { id: 'x', elo: 100 },
        { id: 'y', elo: 300 },
        { id: 'z', elo: 250 },
      ])?.id,
    ).toBe('y');
    expect(autoPick([])).toBeNull();
  });

  it('alternates bans starting with team one and leaves one map of seven after six bans', () => {
    expect([0, 1, 2, 3].map(banTurn)).toEqual(['teamOne', 'teamTwo', 'teamOne', 'teamTwo']);
    const bans = DEFAULT_MAP_POOL.slice(0, 6).map((m) => ({ mapKey: m.key }));
    expect(remainingMaps(DEFAULT_MAP_POOL, bans)).toEqual([{ key: 'de_train', name: 'Train' }]);
  });

  it('applies +12 / −10 by default and nothing for a draw', () => {
    expect(eloDelta(true)).toBe(12);
    expect(eloDelta(false)).toBe(-10);
    expect(eloDelta(null)).toBe(0);
    expect(eloAfter(undefined, true)).toBe(212);
    expect(eloAfter(250, false, { win: 5, loss: 7 })).toBe(243);
  });

  it('ends MR12 at 13, overtime at 16, 19, …', () => {
    expect(isMapOver(13, 11)).toBe(true);
    expect(isMapOver(12, 11)).toBe(false);
    expect(isMapOver(12, 12)).toBe(false);
    expect(isMapOver(13, 12)).toBe(false);
    expect(isMapOver(15, 13)).toBe(false);
    expect(isMapOver(16, 14)).toBe(true);
    expect(isMapOver(15, 15)).toBe(false);
    expect(isMapOver(16, 15)).toBe(false);
    expect(isMapOver(19, 17)).toBe(true);
    expect(isMapOver(18, 18)).toBe(false);
    expect(isMapOver(22, 20)).toBe(true);
  });

  it('simulates consistent rounds: kills of one side are deaths of the other', () => {
    const one = ['a', 'b', 'c', 'd', 'e'].map((key) => ({ key, elo: 200 }));
    const two = ['f', 'g', 'h', 'i', 'j'].map((key) => ({ key, elo: 200 }));
    for (let r = 1; r < 30; r++) {
      const { winner, lines } = simulateRound(`m:${r}`, one, two);
      const sum = (keys: typeof one, f: 'kills' | 'deaths') =>
        keys.reduce((s, p) => s + (lines.get(p.key)?.[f] ?? 0), 0);
      expect(sum(one, 'kills')).toBe(sum(two, 'deaths'));
      expect(sum(two, 'kills')).toBe(sum(one, 'deaths'));
      const losers = winner === 'teamOne' ? two : one;
      expect(sum(losers, 'deaths')).toBeGreaterThanOrEqual(3);
      // Deterministic per (match, round): a restart replays the same round.
      expect(simulateRound(`m:${r}`, one, two).winner).toBe(winner);
    }
  });
});
