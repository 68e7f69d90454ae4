/**
 * Admin match tools (docs/contract.md §4 "Admin match tools"): move a match to another game
 * server, swap a player, force the result of a match whose server died, correct a finished
 * match, void one. Each runs in one transaction holding the match row and writes its audit entry
 * (actor, reason, before/after) in that transaction, so an action and its entry commit together.
 * A refusal (wrong phase, unknown player, no free server) rolls everything back.
 */
import type { AdminMatchCorrect, AdminMatchResult, AuditAction, TeamKey } from '@openpug/shared';
import { and, count, eq, isNotNull } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { type After, inTransaction, logOf } from '../../jobs';
import { conflict, notFound, unprocessable } from '../../lib/errors';
import { findUserById, ranksOfUsers } from '../accounts/service';
import { allocateServer, GameServerUnavailableError, providerOf } from '../gameservers/service';
import {
  isRostered,
  type MatchRow,
  matchLifecycle,
  matchStateOf,
  type PlayerRow,
  presenceOf,
  statusOf,
} from '../matches';
import { matchEvents, matches, matchPlayers, matchRounds } from '../matches/schema';
import {
  findLiveMatchId,
  finishMatch,
  lockedMatchOr404,
  publishState,
  replaceRosterPlayer,
  runMatchEffects,
} from '../matches/service';
import { recordAudit } from '../moderation';
import { queueEntries } from '../queue/schema';
import { takeFromQueue } from '../queue/service';
import { type EloCorrection, eloDelta, eloRulesFromConfig, ratedOutcome, rerateMatch } from '../rating';

type Loaded = { match: MatchRow; players: PlayerRow[] };
type Winner = TeamKey | 'draw';

/** Runs `action` on the locked match and records the audit entry it describes, in one transaction. */
function withMatch<T>(
  ctx: AppContext,
  matchId: string,
  audit: { actorId: string; action: AuditAction; reason: string },
  action: (tx: Db, after: After, found: Loaded) => Promise<{ before: unknown; after: unknown; result?: T }>,
): Promise<T | undefined> {
  return inTransaction(
    ctx.db,
    async (tx, after) => {
      const found = await lockedMatchOr404(tx, matchId);
      const change = await action(tx, after, found);
      await recordAudit(ctx, tx, {
        ...audit,
        targetType: 'match',
        targetId: matchId,
        before: change.before,
        after: change.after,
      });
      return change.result;
    },
    logOf(ctx),
  );
}

const resultOf = (m: MatchRow) => ({
  winner: m.winner,
  score: { teamOne: m.scoreOne, teamTwo: m.scoreTwo },
  map: m.mapKey,
});

/**
 * Move: an active match whose server is set starts over on another one — the game's progress
 * (live, score, rounds, presence, per-player numbers) is reset, every deadline of the match is
 * dropped (a leaver of the old game is none of the new one), the server it leaves ends it, and the allocation runs again (a fresh webhook secret;
 * the MatchZy provider takes another free pool server: 409 NO_FREE_SERVER when there is none).
 */
export function moveMatch(ctx: AppContext, matchId: string, actorId: string, reason: string) {
  return withMatch(ctx, matchId, { actorId, action: 'match.move', reason }, async (tx, after, found) => {
    const { match } = found;
    // Waiting for its players or live: a match still allocating has no server to leave.
    const next = matchLifecycle.require(matchStateOf(match), 'serverMoved');
    const before = { server: match.serverGotv, provider: match.provider, score: resultOf(match).score };
    const provider = providerOf(ctx);
    const left = (await provider.vacate?.(matchId, tx, after)) ?? null;
    await runMatchEffects(ctx, tx, after, matchId, next);
    // A substitute offer of the old game ends with it: its dialogs close everywhere.
    if ((await presenceOf(tx, matchId)).noShows.size > 0)
      after.add(() => ctx.realtime.toAll('PUBLIC_SUBSTITUTE_CLOSED', { matchId }));
    const fresh = {
      status: statusOf(next.to),
      liveAt: null,
      round: 0,
      scoreOne: 0,
      scoreTwo: 0,
      deadline: null,
      serverConnect: null,
      serverGotv: null,
      serverSecret: null,
    };
    await tx.update(matches).set(fresh).where(eq(matches.id, matchId));
    await tx.delete(matchRounds).where(eq(matchRounds.matchId, matchId));
    await tx.delete(matchEvents).where(eq(matchEvents.matchId, matchId));
    await tx
      .update(matchPlayers)
      .set({ kills: 0, deaths: 0, assists: 0, damage: 0, headshots: 0, roundsPresent: 0, leftAt: null })
      .where(eq(matchPlayers.matchId, matchId));
    try {
      await allocateServer(ctx, tx, after, { match: { ...match, ...fresh }, players: found.players }, left);
    } catch (err) {
      if (err instanceof GameServerUnavailableError) throw conflict('NO_FREE_SERVER');
      throw err;
    }
    // The new server's live deadline starts over: setServer's armLiveDeadline effect.
    const [moved] = await tx.select().from(matches).where(eq(matches.id, matchId));
    for (const p of found.players.filter(isRostered))
      after.add(() =>
        ctx.bus.emit('status.patch', {
          userId: p.userId,
          patch: { match: { score: { teamOne: 0, teamTwo: 0 } } },
        }),
      );
    return {
      before,
      after: { server: moved.serverGotv, provider: moved.provider, score: { teamOne: 0, teamTwo: 0 } },
    };
  });
}

/**
 * Swap: `inId` takes `outId`'s place in a match that is not over (team, pick, captaincy; on the
 * game server and in the match's chat room through replaceRosterPlayer). The newcomer leaves the
 * queue if queued (no miss); refused while they are in an accept phase (ALREADY_IN_QUEUE) or in a
 * match (ALREADY_IN_MATCH); `outId` must be in this match (PLAYER_NOT_IN_MATCH).
 */
export function swapMatchPlayer(
  ctx: AppContext,
  matchId: string,
  outId: string,
  inId: string,
  actorId: string,
  reason: string,
) {
  return inTransaction(
    ctx.db,
    async (tx, after) => {
      // The queue locks first (as the queue and the substitutes take them), then the match row.
      const wasQueued = await takeFromQueue(ctx, tx, after, inId);
      const found = await lockedMatchOr404(tx, matchId);
      const { match, players } = found;
      matchLifecycle.require(matchStateOf(match), 'swap');
      const slot = players.find((p) => p.userId === outId && p.replacedAt === null);
      if (!slot) throw unprocessable('PLAYER_NOT_IN_MATCH');
      const user = await findUserById(tx, inId);
      if (!user) throw notFound('USER_DOES_NOT_EXIST');
      if (players.some((p) => p.userId === inId) || (await findLiveMatchId(tx, inId)))
        throw conflict('ALREADY_IN_MATCH');
      if (!wasQueued) {
        const [inPhase] = await tx.select().from(queueEntries).where(eq(queueEntries.userId, inId));
        if (inPhase) throw conflict('ALREADY_IN_QUEUE');
      }
      // Once the game is live the leaving player's row stays (marked replaced) for their rounds,
      // result and history, as a leaver's does (matches/leavers.ts).
      await replaceRosterPlayer(ctx, tx, after, match, slot, user, {
        keepCaptain: true,
        keepRow: matchStateOf(match) === 'live',
      });
      await recordAudit(ctx, tx, {
        actorId,
        action: 'match.swap',
        reason,
        targetType: 'match',
        targetId: matchId,
        before: { userId: outId, name: slot.name, team: slot.team },
        after: { userId: inId, name: user.name, team: slot.team },
      });
    },
    logOf(ctx),
  );
}

/**
 * Force a result on an active match (its server died): finished exactly as by the game server —
 * Elo once (finishMatch runs only on an active match, under the row lock), the result to every
 * player, the server freed. A second call meets a finished match: 409 WRONG_MATCH_PHASE.
 */
export function forceMatchResult(ctx: AppContext, matchId: string, actorId: string, body: AdminMatchResult) {
  return withMatch(
    ctx,
    matchId,
    { actorId, action: 'match.result', reason: body.reason },
    async (tx, after, found) => {
      const { match, players } = found;
      matchLifecycle.require(matchStateOf(match), 'finish');
      const before = { status: match.status, ...resultOf(match) };
      await finishMatch(ctx, tx, after, match, players, body.winner, body.score);
      const elo = await tx
        .select({
          userId: matchPlayers.userId,
          eloBefore: matchPlayers.eloBefore,
          eloAfter: matchPlayers.eloAfter,
        })
        .from(matchPlayers)
        .where(and(eq(matchPlayers.matchId, matchId), isNotNull(matchPlayers.eloBefore)));
      return {
        before,
        after: { status: 'finished', winner: body.winner, score: body.score, map: match.mapKey, elo },
      };
    },
  );
}

/** The Elo changes of a corrected or voided match reach the players' open pages, cards and the leaderboard. */
function announceCorrections(ctx: AppContext, after: After, matchId: string, corrections: EloCorrection[]) {
  after.add(async () => {
    const ranks = await ranksOfUsers(
      ctx,
      corrections.map((c) => c.userId),
      { fresh: true },
    );
    for (const c of corrections) {
      ctx.realtime.toUser(c.userId, 'PRIVATE_ELO_CORRECTED', {
        matchId,
        oldElo: c.current.before,
        newElo: c.current.after,
      });
      ctx.realtime.toUser(c.userId, 'privateUserUpdate', {
        stats: { elo: c.current.after },
        rank: ranks.get(c.userId) ?? null,
      });
      await ctx.bus.emit('user.publicChanged', { userId: c.userId });
    }
  });
  after.add(() => publishState(ctx, matchId));
}

/** Each rated player's change for `winner` (the rules of a normal finish, rating/elo.ts). */
async function reratings(
  ctx: AppContext,
  tx: Db,
  matchId: string,
  players: PlayerRow[],
  winner: Winner | null,
) {
  const [{ rounds }] = await tx
    .select({ rounds: count() })
    .from(matchRounds)
    .where(eq(matchRounds.matchId, matchId));
  const rules = eloRulesFromConfig(ctx.config);
  return players
    .filter((p) => p.team !== null)
    .map((p) => {
      const outcome = winner === null ? 'unrated' : ratedOutcome(p, winner, Number(rounds));
      return {
        userId: p.userId,
        eloBefore: p.eloBefore,
        eloAfter: p.eloAfter,
        delta: outcome === 'unrated' ? 0 : eloDelta(outcome, rules),
      };
    });
}

const eloAudit = (corrections: EloCorrection[]) =>
  corrections.map((c) => ({
    userId: c.userId,
    shift: c.shift,
    matchEloAfter: c.matchEloAfter,
    elo: c.current,
  }));

/**
 * Correct a finished match: winner, score and map (from the match's pool: INVALID_MAP). Every
 * rated player's change is computed anew by the normal rules and the difference carried through
 * their later history (rating/history.ts). The same result again: 409 NOTHING_TO_CORRECT.
 */
export function correctMatch(ctx: AppContext, matchId: string, actorId: string, body: AdminMatchCorrect) {
  return withMatch(
    ctx,
    matchId,
    { actorId, action: 'match.correct', reason: body.reason },
    async (tx, after, found) => {
      const { match, players } = found;
      matchLifecycle.require(matchStateOf(match), 'correct');
      if (match.finishedAt === null) throw conflict('WRONG_MATCH_PHASE');
      const map = match.mapPool.find((m) => m.key === body.map);
      if (!map) throw unprocessable('INVALID_MAP');
      const before = resultOf(match);
      if (
        before.winner === body.winner &&
        before.score.teamOne === body.score.teamOne &&
        before.score.teamTwo === body.score.teamTwo &&
        before.map === map.key
      )
        throw conflict('NOTHING_TO_CORRECT');
      const corrections = await rerateMatch(
        tx,
        { id: matchId, finishedAt: match.finishedAt },
        await reratings(ctx, tx, matchId, players, body.winner),
      );
      await tx
        .update(matches)
        .set({
          winner: body.winner,
          scoreOne: body.score.teamOne,
          scoreTwo: body.score.teamTwo,
          mapKey: map.key,
          mapName: map.name,
        })
        .where(eq(matches.id, matchId));
      announceCorrections(ctx, after, matchId, corrections);
      return {
        before,
        after: { winner: body.winner, score: body.score, map: map.key, elo: eloAudit(corrections) },
      };
    },
  );
}

/**
 * Void a finished match: it no longer counts (cancelled ADMIN_VOIDED, out of stats and seasons);
 * each rated player's change is taken back and carried through their later history. Its score
 * and numbers stay on the match page.
 */
export function voidMatch(ctx: AppContext, matchId: string, actorId: string, reason: string) {
  return withMatch(ctx, matchId, { actorId, action: 'match.void', reason }, async (tx, after, found) => {
    const { match, players } = found;
    const next = matchLifecycle.require(matchStateOf(match), 'void');
    if (match.finishedAt === null) throw conflict('WRONG_MATCH_PHASE');
    const corrections = await rerateMatch(
      tx,
      { id: matchId, finishedAt: match.finishedAt },
      await reratings(ctx, tx, matchId, players, null),
    );
    await tx
      .update(matches)
      .set({ status: statusOf(next.to), cancelReason: 'ADMIN_VOIDED' })
      .where(eq(matches.id, matchId));
    announceCorrections(ctx, after, matchId, corrections);
    after.add(() =>
      ctx.realtime.toRoom(`match:${matchId}`, 'MATCH_CHANGE_STATUS', { matchId, status: 'cancelled' }),
    );
    return {
      before: { status: 'finished', ...resultOf(match) },
      after: { status: 'cancelled', cancelReason: 'ADMIN_VOIDED', elo: eloAudit(corrections) },
    };
  });
}
