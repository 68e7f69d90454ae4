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
 */
import type { TeamKey } from '@openpug/shared';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { type After, inTransaction, logOf } from '../../jobs';
import { notFound, unprocessable } from '../../lib/errors';
import { matchEvents } from '../matches/schema';
import {
  applyRound,
  armStaleDeadline,
  finishMatch,
  loadMatch,
  markLive,
  matchRoom,
} from '../matches/service';
import { toStats } from '../matches/state';
import { isGameMatchIdOf } from './leases';
import { HANDLED_EVENTS, matchzyEnvelopeSchema, matchzyEventSchema } from './matchzy';

export type IngestResult =
  | { accepted: true; event: string }
  | { accepted: false; reason: 'other-match' | 'unhandled' | 'not-live' | 'duplicate' | 'stale' };

const teamOf = (t: string | undefined): TeamKey | null =>
  t === 'team1' ? 'teamOne' : t === 'team2' ? 'teamTwo' : null;

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

  const found = await loadMatch(tx, matchId, true);
  if (!found) throw notFound();
  const { match, players } = found;
  if (match.status !== 'active') return { accepted: false, reason: 'not-live' };

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
      await applyRound(ctx, tx, after, match, players, {
        number: ev.round_number,
        score: { teamOne: ev.team1.score, teamTwo: ev.team2.score },
        winner: teamOf(ev.winner?.team),
        totals,
      });
      break;
    }
    case 'map_result':
    case 'series_end': {
      let score: { teamOne: number; teamTwo: number } | undefined;
      if (ev.event === 'map_result' && ev.team1 && ev.team2)
        score = { teamOne: ev.team1.score, teamTwo: ev.team2.score };
      const s = score ?? { teamOne: match.scoreOne, teamTwo: match.scoreTwo };
      const winner: TeamKey | 'draw' =
        teamOf(ev.winner?.team) ??
        (s.teamOne > s.teamTwo ? 'teamOne' : s.teamTwo > s.teamOne ? 'teamTwo' : 'draw');
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
