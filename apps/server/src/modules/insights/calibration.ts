/**
 * Calibration of the draft's win probability (docs/contract.md §4 "Draft fairness"), pure: the
 * Brier score and the reliability table of predictions against results.
 */
import { CALIBRATION_BINS, CALIBRATION_MIN_MATCHES, type Calibration } from '@openpug/shared';

export interface Outcome {
  /** Team one's predicted win probability. */
  p: number;
  /** 1 when team one won, 0 when team two did. */
  won: 0 | 1;
}

export function calibrationOf(
  outcomes: readonly Outcome[],
  minMatches = CALIBRATION_MIN_MATCHES,
): Calibration {
  const matches = outcomes.length;
  if (matches < minMatches) return { matches, minMatches, brier: null, bins: [] };
  const brier = outcomes.reduce((s, o) => s + (o.p - o.won) ** 2, 0) / matches;
  const bins: Calibration['bins'] = [];
  for (let i = 0; i < CALIBRATION_BINS; i++) {
    const from = i / CALIBRATION_BINS;
    const to = (i + 1) / CALIBRATION_BINS;
    // The last bin holds p = 1 too.
    const inBin = outcomes.filter(
      (o) => o.p >= from && (o.p < to || (i === CALIBRATION_BINS - 1 && o.p <= to)),
    );
    if (inBin.length === 0) continue;
    bins.push({
      from,
      to,
      count: inBin.length,
      predicted: inBin.reduce((s, o) => s + o.p, 0) / inBin.length,
      observed: inBin.reduce((s, o) => s + o.won, 0) / inBin.length,
    });
  }
  return { matches, minMatches, brier, bins };
}
