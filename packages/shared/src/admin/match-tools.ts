import { z } from 'zod';
import { idSchema } from '../ids';
import { reasonSchema } from '../moderation';

/**
 * Admin match tools (docs/contract.md §4 "Admin match tools", §7): each call names its reason,
 * which the audit log keeps with the state before and after. Every call answers the match state.
 */

/** A map's score: rounds won, as CS2 counts them (overtime included). */
const roundsSchema = z.number().int().min(0, 'INVALID_INPUT').max(99, 'INVALID_INPUT');

/** The result an admin sets: the winner must agree with the score (more rounds wins; equal = draw). */
const resultShape = {
  winner: z.enum(['teamOne', 'teamTwo', 'draw']),
  score: z.object({ teamOne: roundsSchema, teamTwo: roundsSchema }),
};

/** The winner a score gives (more rounds wins; equal is a draw). */
export function winnerOfScore(score: { teamOne: number; teamTwo: number }): 'teamOne' | 'teamTwo' | 'draw' {
  if (score.teamOne === score.teamTwo) return 'draw';
  return score.teamOne > score.teamTwo ? 'teamOne' : 'teamTwo';
}

const agrees = (r: { winner: string; score: { teamOne: number; teamTwo: number } }) =>
  winnerOfScore(r.score) === r.winner;

/** POST /api/admin/matches/:id/move: the match restarts on another game server. */
export const adminMatchMoveSchema = z.object({ reason: reasonSchema });
export type AdminMatchMove = z.infer<typeof adminMatchMoveSchema>;

/** POST /api/admin/matches/:id/swap: `in` takes `out`'s place (team, pick, on the game server). */
export const adminMatchSwapSchema = z
  .object({ out: idSchema, in: idSchema, reason: reasonSchema })
  .refine((s) => s.out !== s.in, { message: 'INVALID_INPUT', path: ['in'] });
export type AdminMatchSwap = z.infer<typeof adminMatchSwapSchema>;

/** POST /api/admin/matches/:id/result: the result of a match whose server died (Elo as a normal finish). */
export const adminMatchResultSchema = z
  .object({ ...resultShape, reason: reasonSchema })
  .refine(agrees, { message: 'RESULT_MISMATCH', path: ['winner'] });
export type AdminMatchResult = z.infer<typeof adminMatchResultSchema>;

/** POST /api/admin/matches/:id/correct: a finished match's result and map; every affected Elo follows. */
export const adminMatchCorrectSchema = z
  .object({ ...resultShape, map: z.string().min(1, 'MISSING').max(64, 'INVALID_MAP'), reason: reasonSchema })
  .refine(agrees, { message: 'RESULT_MISMATCH', path: ['winner'] });
export type AdminMatchCorrect = z.infer<typeof adminMatchCorrectSchema>;

/** POST /api/admin/matches/:id/void: a finished match no longer counts (ADMIN_VOIDED; Elo reverted). */
export const adminMatchVoidSchema = z.object({ reason: reasonSchema });
export type AdminMatchVoid = z.infer<typeof adminMatchVoidSchema>;

/**
 * PRIVATE_ELO_CORRECTED: an admin corrected or voided a match the receiver played; their Elo is
 * now `newElo` (the web drops cached cards, rankings and match lists, as after a result).
 */
export type EloCorrectedPayload = { matchId: string; oldElo: number; newElo: number };

declare module '../socket' {
  interface ServerToClientEvents {
    PRIVATE_ELO_CORRECTED: (payload: EloCorrectedPayload) => void;
  }
}
