/**
 * The connect deadline and substitutes. Once a match's game server is ready (the MatchZy load is
 * confirmed, the simulator's server is up), every rostered player has MATCH_CONNECT_TIMEOUT_MS to
 * be on it (job `match.connect`); who is on it comes from the game server itself, polled by the
 * gameservers module (connect-watch.ts) and stored by `recordPresence`. At the deadline each
 * rostered player who is not on the server is a no-show: a `leave` offence (queue cooldown) and
 * their slot is offered (PRIVATE_SUBSTITUTE_OFFER) for SUBSTITUTE_OFFER_TIMEOUT_MS (job
 * `match.substitute`) to the queued players outside an accept phase and to the players in the
 * arena who are neither queued nor in a match — none banned or on a cooldown — and to those who
 * queue or come into the arena while it runs. The first `substitute-accept` takes a slot — under
 * the queue locks and the match row lock, so of two racing players exactly one wins and the other
 * is refused SUBSTITUTE_TAKEN — leaves the queue (or the arena's status: the match takes over),
 * replaces the no-show in the roster and on the game server (bus `match.substituted`). Once every
 * slot is filled the substitutes get their own connect deadline; an offer nobody takes in time
 * cancels the match with NO_SHOW (no Elo change, the players are free again, the server is freed).
 */
import { ELO_DEFAULT, type LIVE_MATCH_STATUSES, type TeamKey, type UserStatusPatch } from '@openpug/shared';
import { and, eq, inArray, like, or } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { After, defineJob, inTransaction, jobField, logOf } from '../../jobs';
import { type AppError, conflict, forbidden, notFound } from '../../lib/errors';
import { findUserById } from '../accounts/service';
import { inArenaIds } from '../arena/service';
import { activeSanction } from '../moderation';
import { activeCooldown, recordOffence } from '../queue';
import { freeQueuedUserIds, isQueued, takeFromQueue } from '../queue/service';
import { inMatchStates, matchStateOf } from './lifecycle';
import {
  CONNECTED_KEY,
  liveOfferRuns,
  NO_SHOW_KEY,
  type Presence,
  presenceOf,
  rosterKey,
  SUB_REQUEST_KEY,
  waitsForPlayers,
} from './presence';
import { matchEvents, matches, matchPlayers } from './schema';
import {
  cancelMatchTx,
  findLiveMatchId,
  liveJob,
  loadMatch,
  lockedMatchOr404,
  publishState,
} from './service';
import { isRostered, type MatchRow, type PlayerRow } from './state';

/** A deadline of a match, stored in the match row too: a job whose time is not the row's is stale. */
const matchDeadline = z.object({ matchId: jobField.id, deadline: jobField.time });
/** What a match deadline's job does when it fires (a stale deadline does nothing). */
type MatchDeadlineHandler = (
  ctx: AppContext,
  tx: Db,
  after: After,
  due: z.output<typeof matchDeadline>,
) => Promise<void>;

/** Deadline for every rostered player to be on the game server. */
export const connectJob = defineJob({
  kind: 'match.connect',
  payload: matchDeadline,
  handle: (ctx, tx, after, due) => connectTimedOut(ctx, tx, after, due),
});
/** Deadline of a no-show's substitute offer. */
export const substituteJob = defineJob({
  kind: 'match.substitute',
  payload: matchDeadline,
  handle: (ctx, tx, after, due) => substituteTimedOut(ctx, tx, after, due),
});

export interface SwappedPlayer {
  userId: string;
  steamId: string | null;
  name: string;
}

declare module '../../events' {
  interface DomainEvents {
    /** A substitute took a no-show's slot (after commit): the game server's roster follows. */
    'match.substituted': { matchId: string; team: TeamKey; out: SwappedPlayer; sub: SwappedPlayer };
  }
}

const rostered = (players: readonly PlayerRow[]) => players.filter(isRostered);

/**
 * Open slots, team one first, then in pick order: before the game, the no-shows still on the
 * roster; once live, the leavers still on the roster whose captain asked for a substitute.
 */
function openSlots(match: MatchRow, players: readonly PlayerRow[], presence: Presence): PlayerRow[] {
  return rostered(players)
    .filter((p) =>
      matchStateOf(match) !== 'live'
        ? presence.noShows.has(p.userId)
        : p.leftAt !== null && presence.subRequests.has(p.userId),
    )
    .sort((a, b) => (a.team === b.team ? (a.pickNo ?? 0) - (b.pickNo ?? 0) : a.team === 'teamOne' ? -1 : 1));
}

/** Whether the match takes substitutes now: waiting for its players, or live with a running offer. */
const takesSubstitutes = (ctx: AppContext, match: MatchRow) =>
  waitsForPlayers(ctx, match) || liveOfferRuns(ctx, match);

/** Where a would-be substitute is now: queued outside an accept phase, or on an arena server. */
interface Whereabouts {
  queued: boolean;
  inArena: boolean;
}

/**
 * Why `userId` cannot step in as a substitute now (the refusal), or null when they can: a queued
 * player outside an accept phase can; so can a player in the arena who is not queued (an accept
 * phase holds them) and not in a live match. Neither may be banned or on a cooldown.
 */
async function substituteRefusal(
  ctx: AppContext,
  db: Db,
  userId: string,
  { queued, inArena }: Whereabouts,
): Promise<AppError | null> {
  if (!queued) {
    if (!inArena || (await isQueued(db, userId))) return conflict('SUBSTITUTE_NOT_QUEUED');
    if (await findLiveMatchId(db, userId)) return conflict('ALREADY_IN_MATCH');
  }
  if (await activeSanction(ctx, db, userId, 'ban')) return forbidden('BANNED');
  if (await activeCooldown(ctx, db, userId)) return forbidden('QUEUE_COOLDOWN');
  return null;
}

/** Everyone who may take a substitute slot now: the queue's free players in order, then the arena's. */
async function availableSubstitutes(ctx: AppContext, db: Db): Promise<string[]> {
  const queued = new Set(await freeQueuedUserIds(db));
  const arena = await inArenaIds(db);
  const ids: string[] = [];
  for (const id of new Set([...queued, ...arena]))
    if (!(await substituteRefusal(ctx, db, id, { queued: queued.has(id), inArena: arena.has(id) })))
      ids.push(id);
  return ids;
}

/**
 * Opens the match's substitute offer for its open slots (a no-show's, a leaver's a captain asked
 * for), or — while one runs — offers the slots again with the same deadline: every player who may
 * step in (availableSubstitutes) and is not in the match gets PRIVATE_SUBSTITUTE_OFFER. Returns
 * the offer's deadline (job `match.substitute`).
 */
export async function openSubstituteOffer(
  ctx: AppContext,
  tx: Db,
  after: After,
  match: MatchRow,
  players: readonly PlayerRow[],
): Promise<number> {
  const now = ctx.clock.now();
  let deadline = match.deadline;
  if (deadline === null || deadline <= now || matchStateOf(match) !== 'live') {
    deadline = now + ctx.config.SUBSTITUTE_OFFER_TIMEOUT_MS;
    await tx.update(matches).set({ deadline }).where(eq(matches.id, match.id));
    await ctx.jobs.schedule(tx, after, substituteJob, { matchId: match.id, deadline }, deadline);
  }
  const offered = { ...match, deadline };
  const inMatch = new Set(players.map((p) => p.userId));
  const recipients = (await availableSubstitutes(ctx, tx)).filter((id) => !inMatch.has(id));
  offerTo(ctx, after, recipients, offered, openSlots(offered, players, await presenceOf(tx, match.id)));
  after.add(() => publishState(ctx, match.id));
  return deadline;
}

/**
 * The game server is ready (or the last open slot was filled): the rostered players have
 * MATCH_CONNECT_TIMEOUT_MS from now to be on it. Null when the window is off.
 */
export async function armConnectDeadline(
  ctx: AppContext,
  tx: Db,
  after: After,
  matchId: string,
): Promise<number | null> {
  if (ctx.config.MATCH_CONNECT_TIMEOUT_MS === 0) return null;
  const deadline = ctx.clock.now() + ctx.config.MATCH_CONNECT_TIMEOUT_MS;
  const rows = await tx
    .update(matches)
    .set({ deadline })
    .where(and(eq(matches.id, matchId), inMatchStates('allocating', 'waiting')))
    .returning({ id: matches.id });
  if (rows.length === 0) return null;
  await ctx.jobs.schedule(tx, after, connectJob, { matchId, deadline }, deadline);
  after.add(() => publishState(ctx, matchId));
  return deadline;
}

/**
 * What the game server reported (roster keys on it): the presence rows follow. Returns whether
 * the match still waits for its players (the poll goes on) — false once live or over.
 */
export async function recordPresence(
  ctx: AppContext,
  tx: Db,
  after: After,
  matchId: string,
  keys: readonly string[],
): Promise<boolean> {
  const found = await loadMatch(tx, matchId, true);
  if (!found || !waitsForPlayers(ctx, found.match)) return false;
  const on = new Set(keys);
  const { onServer } = await presenceOf(tx, matchId);
  const now = new Set(
    rostered(found.players)
      .filter((p) => on.has(rosterKey(p)))
      .map((p) => p.userId),
  );
  const joined = [...now].filter((id) => !onServer.has(id));
  const gone = [...onServer].filter((id) => !now.has(id));
  if (joined.length > 0)
    await tx
      .insert(matchEvents)
      .values(
        joined.map((id) => ({ matchId, eventKey: `${CONNECTED_KEY}${id}`, receivedAt: ctx.clock.now() })),
      )
      .onConflictDoNothing();
  if (gone.length > 0)
    await tx.delete(matchEvents).where(
      and(
        eq(matchEvents.matchId, matchId),
        inArray(
          matchEvents.eventKey,
          gone.map((id) => `${CONNECTED_KEY}${id}`),
        ),
      ),
    );
  if (joined.length > 0 || gone.length > 0) after.add(() => publishState(ctx, matchId));
  return true;
}

/** Whether every rostered player is on the server and no slot is open (the simulator then goes live). */
export async function everyoneOnServer(
  db: Db,
  matchId: string,
  players: readonly PlayerRow[],
): Promise<boolean> {
  const { onServer, noShows } = await presenceOf(db, matchId);
  return rostered(players).every((p) => onServer.has(p.userId) && !noShows.has(p.userId));
}

/**
 * The connect deadline (`match.connect`): every rostered player not on the server is a no-show —
 * a `leave` offence — and their slots are offered to the queue. Everyone there: the deadline is off
 * and the server takes it from here (ready-up, going live).
 */
export const connectTimedOut: MatchDeadlineHandler = async (ctx, tx, after, { matchId, deadline }) => {
  const found = await loadMatch(tx, matchId, true);
  if (!found || !waitsForPlayers(ctx, found.match) || found.match.deadline !== deadline) return; // stale
  const { onServer, noShows } = await presenceOf(tx, matchId);
  const missing = rostered(found.players).filter((p) => !onServer.has(p.userId) && !noShows.has(p.userId));
  if (missing.length === 0) {
    await tx.update(matches).set({ deadline: null }).where(eq(matches.id, matchId));
    after.add(() => publishState(ctx, matchId));
    return;
  }
  for (const p of missing) {
    await recordOffence(ctx, tx, after, p.userId, 'leave');
    await tx
      .insert(matchEvents)
      .values({ matchId, eventKey: `${NO_SHOW_KEY}${p.userId}`, receivedAt: ctx.clock.now() })
      .onConflictDoNothing();
    noShows.add(p.userId);
  }
  if (ctx.config.SUBSTITUTE_OFFER_TIMEOUT_MS === 0) {
    await cancelMatchTx(ctx, tx, after, matchId, 'NO_SHOW');
    return;
  }
  await openSubstituteOffer(ctx, tx, after, found.match, found.players);
};

function offerTo(
  ctx: AppContext,
  after: After,
  userIds: readonly string[],
  match: MatchRow,
  slots: readonly PlayerRow[],
) {
  const first = slots[0];
  if (!first?.team || match.deadline === null || userIds.length === 0) return;
  const payload = {
    matchId: match.id,
    map: match.mapKey ? { key: match.mapKey, name: match.mapName ?? match.mapKey } : null,
    team: first.team,
    teamName: first.team === 'teamOne' ? match.teamOneName : match.teamTwoName,
    slots: slots.length,
    deadline: match.deadline,
  };
  after.add(() => {
    ctx.realtime.toUsers(userIds, 'PRIVATE_SUBSTITUTE_OFFER', payload);
  });
}

/**
 * A player joined the queue or came into the arena: the offers running now reach them too, when
 * they may step in (a queue that was empty at the deadline may fill before the offer ends).
 */
export async function offerRunningSlots(ctx: AppContext, userIds: readonly string[]): Promise<void> {
  // One read for every player who came in together (1,000 joining within a second asked it 1,000
  // times, almost always to find no open offer; issue 20 target 4).
  const rows = await ctx.db
    .selectDistinct({ matchId: matchEvents.matchId })
    .from(matchEvents)
    .innerJoin(matches, eq(matches.id, matchEvents.matchId))
    .where(
      and(
        or(like(matchEvents.eventKey, `${NO_SHOW_KEY}%`), like(matchEvents.eventKey, `${SUB_REQUEST_KEY}%`)),
        eq(matches.status, 'active'),
      ),
    );
  if (rows.length === 0) return;
  const queued = new Set(await freeQueuedUserIds(ctx.db));
  const arena = await inArenaIds(ctx.db);
  const after = new After();
  for (const userId of userIds) {
    const whereabouts = { queued: queued.has(userId), inArena: arena.has(userId) };
    if (await substituteRefusal(ctx, ctx.db, userId, whereabouts)) continue;
    for (const { matchId } of rows) {
      const found = await loadMatch(ctx.db, matchId);
      if (!found || found.match.deadline === null || found.match.deadline <= ctx.clock.now()) continue;
      if (found.players.some((p) => p.userId === userId)) continue;
      const presence = await presenceOf(ctx.db, matchId);
      offerTo(ctx, after, [userId], found.match, openSlots(found.match, found.players, presence));
    }
  }
  await after.run(logOf(ctx));
}

/**
 * The offer's deadline (`match.substitute`): before the game, a slot still open cancels the match
 * (NO_SHOW); once live, the offer just ends (the team plays on short-handed, its captain may ask
 * again).
 */
export const substituteTimedOut: MatchDeadlineHandler = async (ctx, tx, after, { matchId, deadline }) => {
  const found = await loadMatch(tx, matchId, true);
  if (found?.match.status !== 'active' || found.match.deadline !== deadline) return; // stale
  if (matchStateOf(found.match) === 'live') {
    await tx.update(matches).set({ deadline: null }).where(eq(matches.id, matchId));
    await tx
      .delete(matchEvents)
      .where(and(eq(matchEvents.matchId, matchId), like(matchEvents.eventKey, `${SUB_REQUEST_KEY}%`)));
    after.add(() => ctx.realtime.toAll('PUBLIC_SUBSTITUTE_CLOSED', { matchId }));
    after.add(() => publishState(ctx, matchId));
    return;
  }
  if (!waitsForPlayers(ctx, found.match)) return;
  if (openSlots(found.match, found.players, await presenceOf(tx, matchId)).length === 0) return;
  await cancelMatchTx(ctx, tx, after, matchId, 'NO_SHOW');
};

/**
 * A queued or arena player takes an open slot (`substitute-accept`). Refused with
 * SUBSTITUTE_NOT_QUEUED (neither queued nor in the arena, or in an accept phase), ALREADY_IN_MATCH,
 * BANNED, QUEUE_COOLDOWN, SUBSTITUTE_TAKEN (every slot is taken) or SUBSTITUTE_EXPIRED (the offer
 * ended, the match is live or over); 404 for an unknown match. Nothing changes then.
 */
export function takeSubstituteSlot(
  ctx: AppContext,
  userId: string,
  matchId: string,
): Promise<{ matchId: string; team: TeamKey }> {
  return inTransaction(
    ctx.db,
    async (tx, after) => {
      // The queue locks first (as the queue takes them before it creates matches), then the match row;
      // it also serialises an arena player's accepts of two offers (no player on two rosters).
      const queued = await takeFromQueue(ctx, tx, after, userId);
      const inArena = !queued && (await inArenaIds(tx)).has(userId);
      const refusal = await substituteRefusal(ctx, tx, userId, { queued, inArena });
      if (refusal) throw refusal;
      const found = await lockedMatchOr404(tx, matchId);
      const { match, players } = found;
      if (!takesSubstitutes(ctx, match)) throw conflict('SUBSTITUTE_EXPIRED');
      const presence = await presenceOf(tx, matchId);
      const open = openSlots(match, players, presence);
      const offered = presence.noShows.size > 0 || players.some((p) => p.replacedAt !== null);
      if (open.length === 0) throw conflict(offered ? 'SUBSTITUTE_TAKEN' : 'SUBSTITUTE_EXPIRED');
      const now = ctx.clock.now();
      if (match.deadline === null || match.deadline <= now) throw conflict('SUBSTITUTE_EXPIRED');
      if (players.some((p) => p.userId === userId)) throw conflict('ALREADY_IN_MATCH');
      const user = await findUserById(tx, userId);
      if (!user) throw notFound();
      const slot = open[0];
      const team = slot.team as TeamKey;
      const last = open.length === 1;
      // Everyone hears the offer is over before the game server is asked to take the substitute.
      if (last) after.add(() => ctx.realtime.toAll('PUBLIC_SUBSTITUTE_CLOSED', { matchId }));
      const live = matchStateOf(match) === 'live';
      await replaceRosterPlayer(ctx, tx, after, match, slot, user, { keepRow: live });
      if (live) {
        // A leaver's slot: the row stays (their loss, their history); the game goes on.
        await tx
          .delete(matchEvents)
          .where(
            and(
              eq(matchEvents.matchId, matchId),
              eq(matchEvents.eventKey, `${SUB_REQUEST_KEY}${slot.userId}`),
            ),
          );
        if (last) {
          await ctx.jobs.cancel(tx, after, substituteJob, { matchId, deadline: match.deadline });
          await tx.update(matches).set({ deadline: null }).where(eq(matches.id, matchId));
        }
      } else if (last) {
        // Every slot is filled: the substitutes get their own connect window, and the game its time.
        await ctx.jobs.cancel(tx, after, substituteJob, { matchId, deadline: match.deadline });
        await armConnectDeadline(ctx, tx, after, matchId);
        if (ctx.config.MATCH_LIVE_TIMEOUT_MS > 0)
          await ctx.jobs.reschedule(tx, after, liveJob, { matchId }, now + ctx.config.MATCH_LIVE_TIMEOUT_MS);
      }
      return { matchId, team };
    },
    logOf(ctx),
  );
}

/** The player who takes a slot: the fields the roster row copies. */
export interface IncomingPlayer {
  id: string;
  name: string | null;
  avatar: string | null;
  steamId: string | null;
  elo: number | null;
}

/**
 * `user` takes `slot`'s place in the match, loaded and locked by the caller (a substitute for a
 * no-show, or an admin's swap, admin/match-tools.ts): the roster row (team, pick number and, when
 * `keepCaptain`, the captaincy), the leaving player's presence, both players' status (the
 * newcomer gets PRIVATE_MATCH_START and joins the match's chat room through it), and — for a
 * rostered slot of an active match — the game server's roster after commit (bus
 * `match.substituted`, which the gameservers module hands to the provider: MatchZy
 * `matchzy_removeplayer` / `matchzy_addplayer`).
 */
export async function replaceRosterPlayer(
  ctx: AppContext,
  tx: Db,
  after: After,
  match: MatchRow,
  slot: PlayerRow,
  user: IncomingPlayer,
  { keepCaptain = false, keepRow = false }: { keepCaptain?: boolean; keepRow?: boolean } = {},
): Promise<void> {
  const matchId = match.id;
  const userId = user.id;
  const leaving = and(eq(matchPlayers.matchId, matchId), eq(matchPlayers.userId, slot.userId));
  // keepRow: a leaver's row stays, marked replaced, for their result and history (leavers.ts).
  if (keepRow) await tx.update(matchPlayers).set({ replacedAt: ctx.clock.now() }).where(leaving);
  else await tx.delete(matchPlayers).where(leaving);
  await tx.insert(matchPlayers).values({
    matchId,
    userId,
    team: slot.team,
    captain: keepCaptain && slot.captain,
    pickNo: slot.pickNo,
    name: user.name ?? 'player',
    avatar: user.avatar ?? null,
    steamId: user.steamId ?? null,
    elo: user.elo ?? ELO_DEFAULT,
  });
  await tx
    .delete(matchEvents)
    .where(and(eq(matchEvents.matchId, matchId), eq(matchEvents.eventKey, `${CONNECTED_KEY}${slot.userId}`)));
  const status = (uid: string, patch: UserStatusPatch) =>
    ctx.bus.emit('status.patch', { userId: uid, patch });
  const team = slot.team;
  after.add(async () => {
    // Out of the queue and the arena's status: the match takes over (an arena poll only patches
    // changes, so a player still on the arena server stays "in the match").
    await status(userId, {
      inQueue: false,
      inArena: false,
      match: {
        active: true,
        matchId,
        // Only a match that is not over takes a new player (the caller checks).
        status: match.status as (typeof LIVE_MATCH_STATUSES)[number],
        map: match.mapName,
        score: { teamOne: match.scoreOne, teamTwo: match.scoreTwo },
      },
      teamOne: team === 'teamOne',
    });
    await status(slot.userId, {
      match: { active: false, matchId: null, status: null, map: null, score: { teamOne: 0, teamTwo: 0 } },
      teamOne: false,
    });
    ctx.realtime.toUser(userId, 'PRIVATE_MATCH_START', { matchId });
    if (team && match.status === 'active')
      await ctx.bus.emit('match.substituted', {
        matchId,
        team,
        out: { userId: slot.userId, steamId: slot.steamId, name: slot.name },
        sub: { userId, steamId: user.steamId ?? null, name: user.name ?? 'player' },
      });
  });
  after.add(() => publishState(ctx, matchId));
}
