import { z } from 'zod';

/**
 * Insights (docs/contract.md §4 "Queue insights" and "Draft fairness"): the queue's fill estimate
 * and the weekday × hour heatmap of match starts, the win probability of two teams, and the
 * admins' calibration of that probability against real results.
 */

// ---- win probability (docs/contract.md §9 "Elo rules") ----------------------------------------

/** The Elo logistic scale: a team 400 points stronger on average wins 10 times out of 11. */
export const ELO_LOGISTIC_SCALE = 400;

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * Probability that team one beats team two: `1 / (1 + 10^((R₂ − R₁) / 400))`, with Rₜ the mean
 * Elo of the players a team has so far (captain included). 0.5 when either team is empty.
 */
export function teamWinProbability(teamOne: readonly number[], teamTwo: readonly number[]): number {
  if (teamOne.length === 0 || teamTwo.length === 0) return 0.5;
  return 1 / (1 + 10 ** ((mean(teamTwo) - mean(teamOne)) / ELO_LOGISTIC_SCALE));
}

// ---- queue fill estimate ----------------------------------------------------------------------

/** GET /api/queue/eta: how long the queue usually takes to fill from its count now, at this hour. */
export const queueEtaSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('estimate'),
    /** Whole minutes, at least 1. */
    minutes: z.number().int().min(1),
    /** The basis: how many earlier days at this hour the estimate is drawn from. */
    days: z.number().int(),
    count: z.number().int(),
  }),
  z.object({
    status: z.literal('notEnoughData'),
    days: z.number().int(),
    count: z.number().int(),
  }),
]);
export type QueueEta = z.infer<typeof queueEtaSchema>;

// ---- heatmap ----------------------------------------------------------------------------------

/** An IANA time zone the runtime knows (`Europe/Berlin`); anything else is TIME_ZONE_INVALID. */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const heatmapQuerySchema = z.object({
  tz: z.string().min(1, 'TIME_ZONE_INVALID').max(64, 'TIME_ZONE_INVALID').refine(isTimeZone, {
    message: 'TIME_ZONE_INVALID',
  }),
});

export const HEATMAP_DAYS = 28;

/** GET /api/queue/heatmap?tz=: match starts of the last 28 days by weekday (Monday first) and hour. */
export const startsHeatmapSchema = z.object({
  tz: z.string(),
  from: z.number(),
  to: z.number(),
  /** `cells[weekday][hour]`, weekday 0 = Monday … 6 = Sunday, hour 0–23 in `tz`. */
  cells: z.array(z.array(z.number().int())),
  total: z.number().int(),
});
export type StartsHeatmap = z.infer<typeof startsHeatmapSchema>;

// ---- calibration ------------------------------------------------------------------------------

/** Below this many finished matches with a prediction the admins see "not enough matches yet". */
export const CALIBRATION_MIN_MATCHES = 30;
export const CALIBRATION_BINS = 10;

/** GET /api/admin/calibration. */
export const calibrationSchema = z.object({
  /** Finished matches with a stored prediction and a winner (draws are left out). */
  matches: z.number().int(),
  minMatches: z.number().int(),
  /** Mean of (p − outcome)²; null below `minMatches`. 0.25 is what always saying 50 % scores. */
  brier: z.number().nullable(),
  /** Reliability: per tenth of predicted probability, its matches, mean prediction and win rate. */
  bins: z.array(
    z.object({
      from: z.number(),
      to: z.number(),
      count: z.number().int(),
      predicted: z.number(),
      observed: z.number(),
    }),
  ),
});
export type Calibration = z.infer<typeof calibrationSchema>;
