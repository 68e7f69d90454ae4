/**
 * Rating: pure Elo rules. Winners gain ELO_WIN, losers lose ELO_LOSS (defaults +12 / −10,
 * docs/contract.md §9); a draw changes nothing. New players start at ELO_DEFAULT (200, the
 * users table default).
 */
import { ELO_DEFAULT } from '@openpug/shared';

export interface EloRules {
  win: number;
  loss: number;
}

export const defaultEloRules: EloRules = { win: 12, loss: 10 };

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
