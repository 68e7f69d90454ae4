/**
 * The win probability each match stores when it goes live (docs/contract.md §4 "Draft fairness"),
 * and the finished matches' predictions against their results for the admins' calibration.
 */
import { teamWinProbability } from '@openpug/shared';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { matches, matchPlayers } from './schema';

/** Stores team one's win probability from the teams' Elo at match creation; once, at live. */
export async function storeWinProbability(tx: Db, matchId: string): Promise<void> {
  const players = await tx
    .select({ team: matchPlayers.team, elo: matchPlayers.elo })
    .from(matchPlayers)
    .where(eq(matchPlayers.matchId, matchId));
  const elos = (team: 'teamOne' | 'teamTwo') => players.filter((p) => p.team === team).map((p) => p.elo);
  await tx
    .update(matches)
    .set({ winProbability: teamWinProbability(elos('teamOne'), elos('teamTwo')) })
    .where(eq(matches.id, matchId));
}

/** Finished matches with a stored prediction and a winner (draws left out): p and whether team one won. */
export async function predictedOutcomes(db: Db): Promise<{ p: number; won: 0 | 1 }[]> {
  const rows = await db
    .select({ p: matches.winProbability, winner: matches.winner })
    .from(matches)
    .where(
      and(
        eq(matches.status, 'finished'),
        isNotNull(matches.winProbability),
        inArray(matches.winner, ['teamOne', 'teamTwo']),
      ),
    );
  return rows.map((r) => ({ p: r.p as number, won: r.winner === 'teamOne' ? 1 : 0 }));
}
