/**
 * The one ingestion path for game events (MatchZy vocabulary), used by the webhook of real
 * servers and by the embedded simulator. An event's `matchid` is our match id (simulator) or the
 * match's numeric MatchZy id (real servers, see leases.ts). An event for another match, a
 * repeated event (same event / map / round) or an event for a match that is not live changes
 * nothing; each accepted event updates the stored match and emits MATCH_SCORE_UPDATE (round_end
 * also stores the round's per-player numbers; map_result / series_end finish the match with the
 * Elo result). An accepted event of a match that goes on re-arms its stale deadline
 * (MATCH_STALE_TIMEOUT_MS); repeated, unhandled and other matches' events do not: they are no
 * sign that this game progresses.
 *
 * Read against MatchZy's source (shobhit-pathak/MatchZy ef289d5): every event is posted from its
 * own task (Utility.cs:337, :881, :1073; MatchManagement.cs:602), without retry, so they arrive in
 * any order, and a proxy or a replay may repeat them. Hence: a result is applied exactly once
 * (the event key), the round's winner comes from the score change (round_end's `winner.team` is
 * the map's LEADER, Utility.cs:1059), the map's winner from its final score (map_result says
 * "team2" on a draw, Utility.cs:876), a round older than the stored one is stale (its numbers are
 * cumulative, the newer round has them), and a finished match still takes the last round's
 * numbers and the map's final score that may come after its result — never a second Elo change.
 */
import type { TeamKey } from '@openpug/shared';
import { and, eq, like } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { type After, inTransaction, logOf } from '../../jobs';
import { unprocessable } from '../../lib/errors';
import { toStats } from '../matches';
import { matchEvents, matches, matchRounds } from '../matches/schema';
import {
  applyRound,
  armStaleDeadline,
  finishMatch,
  lockedMatchOr404,
  markLive,
  matchRoom,
  trackRoundPresence,
} from '../matches/service';
import { isGameMatchIdOf, leaseOfMatch } from './leases';
import { HANDLED_EVENTS, matchzyEnvelopeSchema, matchzyEventSchema } from './matchzy';
import { matchzyReleaseJob } from './matchzy-provider';

/** After series_end (and the map result), how long the server stays booked for stragglers. */
export const SERIES_END_TAIL_MS = 5_000;

export type IngestResult =
  | { accepted: true; event: string }
  | { accepted: false; reason: 'other-match' | 'unhandled' | 'not-live' | 'duplicate' | 'stale' };

type Score = { teamOne: number; teamTwo: number };

const byScore = (s: Score): TeamKey | 'draw' =>
  s.teamOne > s.teamTwo ? 'teamOne' : s.teamTwo > s.teamOne ? 'teamTwo' : 'draw';

/** The score after the last round stored before `round` (0:0 before the first). */
async function scoreBefore(tx: Db, matchId: string, round: number): Promise<Score> {
  if (round <= 0) return { teamOne: 0, teamTwo: 0 };
  const [row] = await tx
    .select({ one: matchRounds.scoreOne, two: matchRounds.scoreTwo })
    .from(matchRounds)
    .where(and(eq(matchRounds.matchId, matchId), eq(matchRounds.round, round)));
  return row ? { teamOne: row.one, teamTwo: row.two } : { teamOne: 0, teamTwo: 0 };
}

export async function applyGameEvent(
  ctx: AppContext,
  tx: Db,
  after: After,
  matchId: string,
  raw: unknown,
): Promise<IngestResult> {
  const envelope = matchzyEnvelopeSchema.safeParse(raw);
  if (!envelope.success) throw unprocessable('INVALID_INPUT');
  // The cheap check first: most events of a round (kills, bomb) are ignored without a query.
  if (!HANDLED_EVENTS.has(envelope.data.event)) return { accepted: false, reason: 'unhandled' };
  if (envelope.data.matchid !== matchId && !(await isGameMatchIdOf(tx, matchId, envelope.data.matchid)))
    return { accepted: false, reason: 'other-match' };
  const parsed = matchzyEventSchema.safeParse(raw);
  if (!parsed.success) throw unprocessable('INVALID_INPUT');
  const ev = parsed.data;

  const found = await lockedMatchOr404(tx, matchId);
  const { match, players } = found;
  // A finished match still takes what MatchZy posts after its result (see above); nothing else.
  const over = match.status === 'finished';
  if (ev.event === 'series_end' && over) {
    // MatchZy's last word (MatchManagement.cs:602-606), posted two seconds after the map result:
    // once that is in too, the server is freed shortly (the last round_end, posted from its own
    // task, may still be on its way) instead of after the whole release grace.
    const lease = await leaseOfMatch(tx, matchId);
    const [mapResult] = await tx
      .select({ key: matchEvents.eventKey })
      .from(matchEvents)
      .where(and(eq(matchEvents.matchId, matchId), like(matchEvents.eventKey, 'map_result:%')));
    if (lease?.releasedAt === null && mapResult)
      // The job that frees the server (matchzy-provider.ts), brought forward.
      await ctx.jobs.reschedule(
        tx,
        after,
        matchzyReleaseJob,
        { matchId },
        ctx.clock.now() + Math.min(SERIES_END_TAIL_MS, ctx.config.CS2_RELEASE_GRACE_MS),
      );
  }
  if (match.status !== 'active' && !(over && (ev.event === 'round_end' || ev.event === 'map_result')))
    return { accepted: false, reason: 'not-live' };

  const key =
    ev.event === 'round_end'
      ? `round_end:${ev.map_number}:${ev.round_number}`
      : ev.event === 'series_end'
        ? 'series_end'
        : `${ev.event}:${ev.map_number}`;
  const inserted = await tx
    .insert(matchEvents)
    .values({ matchId, eventKey: key, receivedAt: ctx.clock.now() })
    .onConflictDoNothing()
    .returning();
  if (inserted.length === 0) return { accepted: false, reason: 'duplicate' };

  const scoreUpdate = () => {
    const score = { teamOne: match.scoreOne, teamTwo: match.scoreTwo };
    const stats = toStats(players);
    after.add(() =>
      ctx.realtime.toRoom(matchRoom(matchId), 'MATCH_SCORE_UPDATE', {
        matchId,
        score,
        round: match.round,
        stats,
      }),
    );
  };

  switch (ev.event) {
    case 'going_live':
      await markLive(ctx, tx, after, matchId);
      scoreUpdate();
      break;
    case 'round_end': {
      // Older than what is stored: its cumulative numbers are in the newer round already.
      if (ev.round_number <= match.round) return { accepted: false, reason: 'stale' };
      const byKey = new Map<string, string>();
      for (const p of players) {
        byKey.set(p.userId, p.userId);
        if (p.steamId) byKey.set(p.steamId, p.userId);
      }
      const totals = new Map<
        string,
        { kills: number; deaths: number; assists: number; damage: number; headshots: number }
      >();
      for (const team of [ev.team1, ev.team2]) {
        for (const pl of team.players ?? []) {
          const uid = byKey.get(pl.steamid);
          if (!uid || !pl.stats) continue;
          totals.set(uid, {
            kills: pl.stats.kills,
            deaths: pl.stats.deaths,
            assists: pl.stats.assists,
            damage: pl.stats.damage,
            headshots: pl.stats.headshot_kills,
          });
        }
      }
      // The round's winner: whose score went up since the last stored round (a round in between
      // may be missing; then it is known only when one team alone scored). `winner.team` is the
      // map's leader, not the round's winner (Utility.cs:1059).
      const score = { teamOne: ev.team1.score, teamTwo: ev.team2.score };
      const before = await scoreBefore(tx, matchId, match.round);
      const up1 = score.teamOne > before.teamOne;
      const up2 = score.teamTwo > before.teamTwo;
      const winner: TeamKey | null = up1 && !up2 ? 'teamOne' : up2 && !up1 ? 'teamTwo' : null;
      await applyRound(
        ctx,
        tx,
        after,
        match,
        players,
        { number: ev.round_number, score, winner, totals },
        over,
      );
      // Who was on the server for this round: MatchZy lists connected players only (leavers.ts).
      const lists = [ev.team1.players, ev.team2.players].filter((l) => l !== undefined);
      const listed = lists.length === 0 ? null : new Set(lists.flat().map((pl) => pl.steamid));
      await trackRoundPresence(ctx, tx, after, match, players, listed);
      break;
    }
    case 'map_result':
    case 'series_end': {
      let score: Score | undefined;
      if (ev.event === 'map_result' && ev.team1 && ev.team2)
        score = { teamOne: ev.team1.score, teamTwo: ev.team2.score };
      if (over) {
        // The result is in (series_end came first): the map's final score completes it.
        if (!score) return { accepted: false, reason: 'not-live' };
        await tx
          .update(matches)
          .set({ scoreOne: score.teamOne, scoreTwo: score.teamTwo })
          .where(eq(matches.id, matchId));
        match.scoreOne = score.teamOne;
        match.scoreTwo = score.teamTwo;
        scoreUpdate();
        break;
      }
      const s = score ?? { teamOne: match.scoreOne, teamTwo: match.scoreTwo };
      let winner: TeamKey | 'draw' = byScore(s);
      if (ev.event === 'series_end') {
        // MatchManagement.cs:591: "none" for a level series, else whoever has more maps.
        const one = ev.team1_series_score;
        const two = ev.team2_series_score;
        if (one !== undefined && two !== undefined)
          winner = one > two ? 'teamOne' : two > one ? 'teamTwo' : 'draw';
        else if (ev.winner?.team === 'none') winner = 'draw';
        else if (ev.winner?.team) winner = ev.winner.team === 'team1' ? 'teamOne' : 'teamTwo';
      }
      if (score) {
        match.scoreOne = score.teamOne;
        match.scoreTwo = score.teamTwo;
      }
      scoreUpdate();
      await finishMatch(ctx, tx, after, match, players, winner, score);
      break;
    }
  }
  // The server is alive and the game goes on: push the stale deadline out.
  if (match.status === 'active') await armStaleDeadline(ctx, tx, after, matchId);
  return { accepted: true, event: ev.event };
}

/** Ingests one event in its own transaction (the webhook). */
export function ingestEvent(ctx: AppContext, matchId: string, raw: unknown): Promise<IngestResult> {
  return inTransaction(ctx.db, (tx, after) => applyGameEvent(ctx, tx, after, matchId, raw), logOf(ctx));
}
