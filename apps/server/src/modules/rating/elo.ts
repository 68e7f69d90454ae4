/**
 * Rating: pure Elo rules. Winners gain ELO_WIN, losers lose ELO_LOSS (defaults +12 / −10,
 * docs/contract.md §9); a draw changes nothing. New players start at ELO_DEFAULT (200, the
 * users table default).
 */
import { ELO_DEFAULT, ELO_LOSS, ELO_WIN, RATED_PRESENCE_SHARE } from '@openpug/shared';

export interface EloRules {
  win: number;
  loss: number;
}

export const defaultEloRules: EloRules = { win: ELO_WIN, loss: ELO_LOSS };

export function eloRulesFromConfig(config: { ELO_WIN: number; ELO_LOSS: number }): EloRules {
  return { win: config.ELO_WIN, loss: config.ELO_LOSS };
}

/** The change for one player: +win, −loss, or 0 for a draw (victory null). */
export function eloDelta(victory: boolean | null, rules: EloRules = defaultEloRules): number {
  if (victory === null) return 0;
  return victory ? rules.win : -rules.loss;
}

export function eloAfter(
  elo: number | null | undefined,
  victory: boolean | null,
  rules = defaultEloRules,
): number {
  return (elo ?? ELO_DEFAULT) + eloDelta(victory, rules);
}

/**
 * Who is rated for a result, and how (docs/contract.md §4 "Leavers and the 80 % rule"): a leaver
 * gets the loss whatever the score; anyone else is rated only when on the server for at least
 * RATED_PRESENCE_SHARE of the match's rounds (a late substitute, a player who was gone a while are
 * not: null). Without round data (no round reached us) everyone but the leavers is rated as usual.
 * Returns the victory for eloDelta, or 'unrated'.
 */
export function ratedOutcome(
  player: { team: 'teamOne' | 'teamTwo' | null; leftAt: number | null; roundsPresent: number },
  winner: 'teamOne' | 'teamTwo' | 'draw',
  totalRounds: number,
): boolean | null | 'unrated' {
  if (player.leftAt !== null) return false;
  // In whole percent, so that 80 % of 15 rounds is exactly 12 (no floating-point rounding).
  const percent = Math.round(RATED_PRESENCE_SHARE * 100);
  if (totalRounds > 0 && player.roundsPresent * 100 < percent * totalRounds) return 'unrated';
  return winner === 'draw' ? null : player.team === winner;
}
