/**
 * Re-rating a match after the fact (an admin corrects or voids it, admin/match-tools.ts) with the
 * Elo history kept exact. An Elo change depends only on the player's outcome (+ELO_WIN, −ELO_LOSS,
 * 0; docs/contract.md §9), never on the Elo the player had, so when one match's change for a
 * player moves by `shift`, every later point of that player's history moves by the same `shift`:
 * the Elo before and after of each later rated match and the current Elo. Replaying the later
 * matches would give the same numbers; shifting them also keeps any other change made in between
 * (an admin setting an Elo by hand). Should the rules ever depend on the Elo itself (opponents'
 * ratings), this has to become a replay.
 */
import { and, eq, gt, isNotNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { adjustElo } from '../accounts/service';
import { matches, matchPlayers } from '../matches/schema';

/** One player's new change in the re-rated match. Players without an Elo entry stay without. */
export interface Rerating {
  userId: string;
  eloBefore: number | null;
  eloAfter: number | null;
  /** The change the match gives now (0 when voided). */
  delta: number;
}

/** What changed for one player: this match's Elo after, and the current Elo. */
export interface EloCorrection {
  userId: string;
  shift: number;
  matchEloAfter: { before: number; after: number };
  current: { before: number; after: number };
}

/**
 * Applies the new changes of match `matchId` (finished at `finishedAt`): this match's Elo after,
 * each later rated match of the player and the player's current Elo move by the difference.
 * Runs in the caller's transaction with the match row locked.
 */
export async function rerateMatch(
  tx: Db,
  match: { id: string; finishedAt: number },
  players: readonly Rerating[],
): Promise<EloCorrection[]> {
  const corrections: EloCorrection[] = [];
  for (const p of players) {
    if (p.eloBefore === null || p.eloAfter === null) continue; // not rated in this match
    const shift = p.delta - (p.eloAfter - p.eloBefore);
    if (shift === 0) continue;
    const newAfter = p.eloBefore + p.delta;
    await tx
      .update(matchPlayers)
      .set({ eloAfter: newAfter })
      .where(and(eq(matchPlayers.matchId, match.id), eq(matchPlayers.userId, p.userId)));
    // Every later Elo entry of the player (finished matches, and voided ones, which keep theirs).
    const later = tx
      .select({ id: matches.id })
      .from(matches)
      .where(and(gt(matches.finishedAt, match.finishedAt), ne(matches.id, match.id)));
    await tx
      .update(matchPlayers)
      .set({
        eloBefore: sql`${matchPlayers.eloBefore} + ${shift}`,
        eloAfter: sql`${matchPlayers.eloAfter} + ${shift}`,
      })
      .where(
        and(
          eq(matchPlayers.userId, p.userId),
          isNotNull(matchPlayers.eloBefore),
          sql`${matchPlayers.matchId} in ${later}`,
        ),
      );
    const current = (await adjustElo(tx, p.userId, shift)) ?? { before: 0, after: 0 };
    corrections.push({
      userId: p.userId,
      shift,
      matchEloAfter: { before: p.eloAfter, after: newAfter },
      current,
    });
  }
  return corrections;
}
