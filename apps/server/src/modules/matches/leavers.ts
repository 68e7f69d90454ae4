/**
 * Leavers of a live match (docs/contract.md §4 "Leavers and the 80 % rule"). Who is on the game
 * server once the game runs comes from its round_end events: MatchZy lists in each team's
 * `players` only the players connected when the round ended (its playerData, Utility.cs:1612-1615
 * at shobhit-pathak/MatchZy ef289d5; it sends no disconnect event, Events.cs:96-104 declares one
 * that nothing posts). So each round_end credits the listed rostered players with a round present
 * (the 80 % rule counts them at the result), and a rostered player it does not list is absent from
 * then on (`absent:<userId>`, cleared by the next round_end that lists them). Still absent
 * LEAVER_GRACE_MS later (job `match.leaver`) the player is a leaver: a `leave` offence (queue
 * cooldown) and the loss at the result; their captain may ask for a substitute
 * (`substitute-request`), which opens the substitute offer of substitutes.ts for the slot.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { type After, defineJob, inTransaction, jobField, logOf } from '../../jobs';
import { badRequest, conflict, forbidden } from '../../lib/errors';
import { recordOffence } from '../queue';
import { matchStateOf } from './lifecycle';
import { ABSENT_KEY, presenceOf, rosterKey, SUB_REQUEST_KEY } from './presence';
import { matchEvents, matchPlayers } from './schema';
import { loadMatch, lockedMatchOr404, publishState } from './service';
import { isRostered, type MatchRow, type PlayerRow } from './state';
import { openSubstituteOffer } from './substitutes';

/** A player's grace to come back, from the time they were first missing (`since`). */
export const leaverJob = defineJob({
  kind: 'match.leaver',
  payload: z.object({ matchId: jobField.id, userId: jobField.id, since: jobField.time }),
  handle: (ctx, tx, after, absence) => leaverTimedOut(ctx, tx, after, absence),
});

/**
 * A round_end of the live match was applied: `listed` are the roster keys (SteamID64, else user
 * id) in its team lists; null when the event lists no players at all (nobody can be told absent).
 * The listed players' `rounds_present` go up (also for a last round that comes after the result).
 */
export async function trackRoundPresence(
  ctx: AppContext,
  tx: Db,
  after: After,
  match: MatchRow,
  players: readonly PlayerRow[],
  listed: ReadonlySet<string> | null,
): Promise<void> {
  const rostered = players.filter(isRostered);
  const present = rostered.filter((p) => listed === null || listed.has(rosterKey(p)));
  const missing = rostered.filter((p) => listed !== null && !listed.has(rosterKey(p)) && p.leftAt === null);
  if (present.length > 0)
    await tx
      .update(matchPlayers)
      .set({ roundsPresent: sql`${matchPlayers.roundsPresent} + 1` })
      .where(
        and(
          eq(matchPlayers.matchId, match.id),
          inArray(
            matchPlayers.userId,
            present.map((p) => p.userId),
          ),
        ),
      );
  for (const p of present) p.roundsPresent += 1;
  const { absent } = await presenceOf(tx, match.id);
  const back = present.filter((p) => absent.has(p.userId));
  if (back.length > 0)
    await tx.delete(matchEvents).where(
      and(
        eq(matchEvents.matchId, match.id),
        inArray(
          matchEvents.eventKey,
          back.map((p) => `${ABSENT_KEY}${p.userId}`),
        ),
      ),
    );
  // A round after the result (MatchZy posts it from its own task) is on the record, no more.
  if (ctx.config.LEAVER_GRACE_MS === 0 || match.status !== 'active') return;
  const now = ctx.clock.now();
  for (const p of missing) {
    if (absent.has(p.userId)) continue; // the grace runs already
    await tx
      .insert(matchEvents)
      .values({ matchId: match.id, eventKey: `${ABSENT_KEY}${p.userId}`, receivedAt: now });
    await ctx.jobs.schedule(
      tx,
      after,
      leaverJob,
      { matchId: match.id, userId: p.userId, since: now },
      now + ctx.config.LEAVER_GRACE_MS,
    );
  }
}

/**
 * The grace of a player absent since `since` is over (`match.leaver`): still absent (the same
 * absence, the match live) → a leaver, with the leave cooldown; the room shows it to their captain.
 */
export async function leaverTimedOut(
  ctx: AppContext,
  tx: Db,
  after: After,
  { matchId, userId, since }: { matchId: string; userId: string; since: number },
): Promise<void> {
  const found = await loadMatch(tx, matchId, true);
  if (!found || matchStateOf(found.match) !== 'live') return; // over
  const player = found.players.find((p) => p.userId === userId);
  if (!player || !isRostered(player) || player.leftAt !== null) return;
  const { absent } = await presenceOf(tx, matchId);
  if (absent.get(userId) !== since) return; // came back meanwhile (maybe gone again: a newer job)
  await tx
    .update(matchPlayers)
    .set({ leftAt: ctx.clock.now() })
    .where(and(eq(matchPlayers.matchId, matchId), eq(matchPlayers.userId, userId)));
  await recordOffence(ctx, tx, after, userId, 'leave');
  after.add(() => publishState(ctx, matchId));
}

/**
 * A captain asks for a substitute for a leaver of their team: the slot joins the match's running
 * offer, or opens one (SUBSTITUTE_OFFER_TIMEOUT_MS). 404 unknown match; 409 WRONG_MATCH_PHASE
 * unless live; 403 NOT_YOUR_CAPTAIN_CALL unless the caller captains the leaver's team; 400
 * NOT_A_LEAVER for anyone who is not a leaver still on the roster. Asking twice changes nothing.
 */
export function requestSubstitute(
  ctx: AppContext,
  captainId: string,
  matchId: string,
  leaverId: string,
): Promise<{ matchId: string; deadline: number }> {
  return inTransaction(
    ctx.db,
    async (tx, after) => {
      const found = await lockedMatchOr404(tx, matchId);
      const { match, players } = found;
      if (matchStateOf(match) !== 'live') throw conflict('WRONG_MATCH_PHASE');
      if (ctx.config.SUBSTITUTE_OFFER_TIMEOUT_MS === 0) throw conflict('SUBSTITUTE_EXPIRED');
      const leaver = players.find((p) => p.userId === leaverId);
      const captain = players.find((p) => p.userId === captainId);
      if (!captain || !isRostered(captain)) throw forbidden('NOT_A_PARTICIPANT');
      if (!leaver || !isRostered(leaver) || leaver.leftAt === null) throw badRequest('NOT_A_LEAVER');
      if (!captain.captain || captain.team !== leaver.team) throw forbidden('NOT_YOUR_CAPTAIN_CALL');
      const { subRequests } = await presenceOf(tx, matchId);
      const now = ctx.clock.now();
      if (subRequests.has(leaverId) && match.deadline !== null && match.deadline > now)
        return { matchId, deadline: match.deadline };
      await tx
        .insert(matchEvents)
        .values({ matchId, eventKey: `${SUB_REQUEST_KEY}${leaverId}`, receivedAt: now })
        .onConflictDoNothing();
      const deadline = await openSubstituteOffer(ctx, tx, after, match, players);
      return { matchId, deadline };
    },
    logOf(ctx),
  );
}
