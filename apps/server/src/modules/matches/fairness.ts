/**
 * The fair auto-pick (docs/contract.md §4 "Match room", "Draft fairness"), pure: on a pick timeout
 * the player who keeps the teams fairest goes to the captain on turn, not just the highest-rated.
 *
 * For every candidate the rule looks ahead: with the candidate on the team on turn, how close to
 * 50 % can the final teams still get (the best split of everyone left into the open slots)? The
 * candidate whose best split is closest wins; ties go to the one whose pick alone leaves the win
 * probability closest to 50 %, then to the higher Elo, then to the earlier in the list. Looking
 * ahead matters: greedily evening out the current teams can hand the other captain a pool that
 * cannot be balanced any more. With at most 8 players left this is at most 8 × C(7, 3) = 280
 * splits.
 */
import { PLAYERS_PER_MATCH, teamWinProbability } from '@openpug/shared';

const TEAM_SIZE = PLAYERS_PER_MATCH / 2;

/** Every way to choose `k` of `items` (indices). */
function* combinations(n: number, k: number, start = 0, chosen: number[] = []): Generator<number[]> {
  if (chosen.length === k) {
    yield chosen;
    return;
  }
  for (let i = start; i <= n - (k - chosen.length); i++) yield* combinations(n, k, i + 1, [...chosen, i]);
}

/** The smallest |p − 0.5| any split of `rest` into the open slots of both teams reaches. */
export function bestFinalImbalance(
  onTurn: readonly number[],
  other: readonly number[],
  rest: readonly number[],
): number {
  const openOnTurn = Math.max(0, Math.min(rest.length, TEAM_SIZE - onTurn.length));
  let best = Number.POSITIVE_INFINITY;
  for (const idx of combinations(rest.length, openOnTurn)) {
    const taken = new Set(idx);
    const a = [...onTurn, ...idx.map((i) => rest[i])];
    const b = [...other, ...rest.filter((_, i) => !taken.has(i))];
    best = Math.min(best, Math.abs(teamWinProbability(a, b) - 0.5));
    if (best === 0) break;
  }
  return best;
}

/**
 * The fairest pick for the team on turn (`onTurn`: its players' Elo so far; `other`: the other
 * team's) out of `pool`. Null for an empty pool.
 */
export function fairestPick<T extends { elo: number }>(
  onTurn: readonly number[],
  other: readonly number[],
  pool: readonly T[],
): T | null {
  let best: { player: T; final: number; now: number } | null = null;
  for (const [i, player] of pool.entries()) {
    const withPlayer = [...onTurn, player.elo];
    const rest = pool.filter((_, j) => j !== i).map((p) => p.elo);
    const final = bestFinalImbalance(withPlayer, other, rest);
    const now = Math.abs(teamWinProbability(withPlayer, other) - 0.5);
    const better =
      !best ||
      final < best.final - 1e-12 ||
      (Math.abs(final - best.final) <= 1e-12 &&
        (now < best.now - 1e-12 || (Math.abs(now - best.now) <= 1e-12 && player.elo > best.player.elo)));
    if (better) best = { player, final, now };
  }
  return best?.player ?? null;
}
