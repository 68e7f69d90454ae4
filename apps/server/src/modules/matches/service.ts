/**
 * Matches: owns the match room state machine — playerveto (captain picks) → mapveto (bans) →
 * active (game server, live score) → finished (Elo) | cancelled. Every turn has a persisted
 * deadline (jobs `match.pick` / `match.ban`); a captain acting in time cancels it, otherwise it
 * fires once and auto-picks the player who keeps the teams fairest (fairness.ts) / bans a random
 * map. Each change commits in one transaction holding the match row (SELECT … FOR UPDATE), then
 * the room gets its events and a fresh MATCH_STATE (per viewer: only participants see
 * `server.connect`). Once the game server is set, the match must go live within
 * MATCH_LIVE_TIMEOUT_MS (job `match.live`), else it is cancelled and the server freed: a server
 * nobody plays on is not held forever. Once live, every
 * game event pushes the stale deadline (job `match.stale`, MATCH_STALE_TIMEOUT_MS) out; a game
 * whose server went silent (crashed, hung) is cancelled the same way, so its ten players can queue
 * again.
 *
 * Used by: queue (readMatchInputs, planMatches, writeMatches, findLiveMatchId), gameservers
 * (setServer, applyRound, markLive, armStaleDeadline, finishMatch, cancelMatch), admin
 * (cancelMatchByAdmin). Other modules read results through stats.ts; a match that is over is
 * announced as `match.ended` (the gameservers module frees the match's server on it).
 */
import { randomUUID } from 'node:crypto';
import {
  ELO_DEFAULT,
  LIVE_MATCH_STATUSES,
  type MapInfo,
  type MatchCancelReason,
  type MatchState,
  type OverMatchStatus,
  type PlayerStats,
  type TeamKey,
  type UserStatusPatch,
} from '@openpug/shared';
import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { type Db, sentTogether } from '../../db/client';
import { insertUnnested } from '../../db/unnest';
import { type After, defineJob, inTransaction, type JobDefinition, jobField, logOf } from '../../jobs';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { countCall } from '../accounts';
import { adjustElo, findUserById, findUserIdsByRole, ranksOfUsers, type UserRow } from '../accounts/service';
import { allocateJob } from '../gameservers/service';
import { eloDelta, eloRulesFromConfig, ratedOutcome } from '../rating';
import { openVoiceChannels, voiceStateOf } from '../voice';
import { fairestPick } from './fairness';
import {
  MATCH_START,
  type MatchEvent,
  type MatchTransition,
  matchLifecycle,
  matchStateOf,
  statusOf,
} from './lifecycle';
import { storeWinProbability } from './predictions';
import { connectStateOf, leaverStateOf } from './presence';
import { reliabilityOf } from './reliability';
import { banTurn, chooseCaptains, DEFAULT_MAP_POOL, otherTeam, pickTurn, remainingMaps } from './rules';
import { maps, matches, matchPlayers, matchRounds, type RoundPlayerStats } from './schema';
import { buildState, isRostered, type MatchRow, type PlayerRow, toPlayer, toStats } from './state';

// What the game servers (connect watch, MatchZy ingest, simulator) and the admin's match tools call
// of the substitutes and leavers, who are part of the match's rules. Those files import this one
// back and use it only inside functions, so the cycle is safe.
export { trackRoundPresence } from './leavers';
export { armConnectDeadline, everyoneOnServer, recordPresence, replaceRosterPlayer } from './substitutes';

/** Whether the match is live now (active, on its game server, playing). */
export async function isMatchLive(db: Db, matchId: string): Promise<boolean> {
  const [match] = await db.select().from(matches).where(eq(matches.id, matchId));
  return Boolean(match) && matchStateOf(match) === 'live';
}

/** The ids of the matches live now. */
export async function liveMatchIds(db: Db): Promise<Set<string>> {
  const active = await db.select().from(matches).where(eq(matches.status, 'active'));
  return new Set(active.filter((m) => matchStateOf(m) === 'live').map((m) => m.id));
}

/** The turn of pick or ban number `index` (0-based) of a match. */
const turnPayload = z.object({ matchId: jobField.id, index: jobField.index });

/** Deadline of a captain's pick (PICK_TIMEOUT_MS). */
export const pickJob = defineJob({
  kind: 'match.pick',
  payload: turnPayload,
  handle: (ctx, tx, after, { matchId, index }) => pickTimedOut(ctx, tx, after, matchId, index),
});
/** Deadline of a captain's map ban (BAN_TIMEOUT_MS). */
export const banJob = defineJob({
  kind: 'match.ban',
  payload: turnPayload,
  handle: (ctx, tx, after, { matchId, index }) => banTimedOut(ctx, tx, after, matchId, index),
});
/** Deadline for the game server to go live (MATCH_LIVE_TIMEOUT_MS after the server is set). */
export const liveJob = defineJob({
  kind: 'match.live',
  payload: z.object({ matchId: jobField.id }),
  handle: (ctx, tx, after, { matchId }) => liveTimedOut(ctx, tx, after, matchId),
});
/** Deadline for the next game event of a live match (MATCH_STALE_TIMEOUT_MS after the last one). */
export const staleJob = defineJob({
  kind: 'match.stale',
  payload: z.object({ matchId: jobField.id }),
  handle: (ctx, tx, after, { matchId }) => staleTimedOut(ctx, tx, after, matchId),
});

export const matchRoom = (matchId: string) => `match:${matchId}`;

declare module '../../events' {
  interface DomainEvents {
    /**
     * A match is over: finished with a result, or cancelled for whatever reason (after commit).
     * Emitted once per match, by the transaction that ended it.
     */
    'match.ended': { matchId: string; status: OverMatchStatus; reason: MatchCancelReason | null };
  }
}

/** After commit: tells the other modules the match is over (once, the cancel/finish is committed). */
function announceEnded(
  ctx: AppContext,
  after: After,
  matchId: string,
  status: OverMatchStatus,
  reason: MatchCancelReason | null,
) {
  after.add(() => ctx.bus.emit('match.ended', { matchId, status, reason }));
}

/**
 * Carries out a lifecycle transition's effects (lifecycle.ts) in the caller's transaction: the
 * deadlines it arms or ends, and `match.ended` after commit. `turn`: the pick or ban the armed
 * deadline is for; `reason`: why a cancelled match ended.
 */
export function runMatchEffects(
  ctx: AppContext,
  tx: Db,
  after: After,
  matchId: string,
  transition: MatchTransition,
  opts: EffectOptions = {},
): Promise<void> {
  return runEffectsOf(ctx, tx, after, [matchId], transition, opts);
}

type EffectOptions = { turn?: { index: number; deadline: number }; reason?: MatchCancelReason };

/**
 * runMatchEffects for several matches taking the same transition at once (the queue starts a
 * burst of matches in one transaction): each deadline kind is one statement for all of them.
 */
async function runEffectsOf(
  ctx: AppContext,
  tx: Db,
  after: After,
  matchIds: readonly string[],
  transition: MatchTransition,
  opts: EffectOptions,
): Promise<void> {
  const turn = () => {
    if (!opts.turn) throw new Error(`${transition.to}: a turn deadline needs its index and time`);
    return opts.turn;
  };
  const armAll = <P>(job: JobDefinition<P>, payload: (matchId: string) => P, dueAt: number) =>
    ctx.jobs.scheduleMany(
      tx,
      after,
      job,
      matchIds.map((matchId) => ({ payload: payload(matchId), dueAt })),
    );
  for (const effect of transition.effects) {
    switch (effect) {
      case 'armPickDeadline':
        await armAll(pickJob, (matchId) => ({ matchId, index: turn().index }), turn().deadline);
        break;
      case 'armBanDeadline':
        await armAll(banJob, (matchId) => ({ matchId, index: turn().index }), turn().deadline);
        break;
      case 'requestServer':
        await armAll(allocateJob, (matchId) => ({ matchId }), ctx.clock.now());
        break;
      case 'armLiveDeadline':
        // reschedule, not schedule: after an admin's move the match's `match.live` row is there,
        // ended by dropDeadlines, and the deadline starts over on the new server.
        if (ctx.config.MATCH_LIVE_TIMEOUT_MS > 0)
          for (const matchId of matchIds)
            await ctx.jobs.reschedule(
              tx,
              after,
              liveJob,
              { matchId },
              ctx.clock.now() + ctx.config.MATCH_LIVE_TIMEOUT_MS,
            );
        break;
      case 'disarmLiveDeadline':
        await ctx.jobs.cancelMany(
          tx,
          after,
          liveJob,
          matchIds.map((matchId) => ({ matchId })),
        );
        break;
      case 'dropDeadlines':
        for (const matchId of matchIds) await ctx.jobs.cancelFor(tx, after, 'matchId', matchId);
        break;
      case 'endDeadlines':
        for (const job of [liveJob, staleJob])
          await ctx.jobs.cancelMany(
            tx,
            after,
            job,
            matchIds.map((matchId) => ({ matchId })),
          );
        break;
      case 'announceEnded':
        for (const matchId of matchIds)
          announceEnded(ctx, after, matchId, statusOf(transition.to) as OverMatchStatus, opts.reason ?? null);
        break;
      case 'openVoiceChannels':
        for (const matchId of matchIds) await openVoiceChannels(ctx, tx, after, matchId);
        break;
    }
  }
}

// ---- reading -----------------------------------------------------------------------------------

/**
 * The match and its players, the match row locked when `lock` (in the caller's transaction). Both
 * reads are sent together, one wait instead of two (issue 20): in a transaction the driver runs
 * them in the order given, so the players are read once the lock is held; on the pool they go on
 * two connections at once, as two reads one after the other did, each at its own moment. A missing
 * match costs an empty players read.
 */
export async function loadMatch(
  db: Db,
  matchId: string,
  lock = false,
): Promise<{ match: MatchRow; players: PlayerRow[] } | null> {
  const q = db.select().from(matches).where(eq(matches.id, matchId));
  const [[match], players] = await sentTogether(
    lock ? q.for('update') : q,
    db.select().from(matchPlayers).where(eq(matchPlayers.matchId, matchId)),
  );
  return match ? { match, players } : null;
}

/** The match and its players, locked for the caller's transaction; 404 when there is no such match. */
export async function lockedMatchOr404(
  tx: Db,
  matchId: string,
): Promise<{ match: MatchRow; players: PlayerRow[] }> {
  const found = await loadMatch(tx, matchId, true);
  if (!found) throw notFound();
  return found;
}

/** The match a user is playing right now (playerveto, mapveto or active), if any. */
export async function findLiveMatchId(db: Db, userId: string): Promise<string | null> {
  const [row] = await liveMatchIdQuery(db, userId);
  return row?.id ?? null;
}

/** findLiveMatchId's read, not run: a statement of the caller's can take it as a subquery. */
export function liveMatchIdQuery(db: Db, userId: string) {
  return db
    .select({ id: matches.id })
    .from(matchPlayers)
    .innerJoin(matches, eq(matches.id, matchPlayers.matchId))
    .where(
      and(
        eq(matchPlayers.userId, userId),
        isNull(matchPlayers.replacedAt),
        inArray(matches.status, [...LIVE_MATCH_STATUSES]),
      ),
    )
    .limit(1);
}

/** Which of these players are rostered in a live match (findLiveMatchId for many). */
export async function inLiveMatchAmong(db: Db, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await liveMatchChecks(db, userIds);
  return new Set(rows.map((r) => r.userId));
}

/**
 * inLiveMatchAmong's read, not run: the queue's joins run it with their other checks in one
 * statement, one row `{userId, check: 'match'}` a player in a live match.
 */
export function liveMatchChecks(db: Db, userIds: readonly string[]) {
  return db
    .select({
      userId: sql<string>`${matchPlayers.userId}`.as('user_id'),
      check: sql<string>`'match'`.as('check'),
    })
    .from(matchPlayers)
    .innerJoin(matches, eq(matches.id, matchPlayers.matchId))
    .where(
      and(
        inArray(matchPlayers.userId, [...userIds]),
        isNull(matchPlayers.replacedAt),
        inArray(matches.status, [...LIVE_MATCH_STATUSES]),
      ),
    );
}

export async function getMatchState(
  ctx: AppContext,
  matchId: string,
  viewerId: string | null,
): Promise<MatchState> {
  const found = await loadMatch(ctx.db, matchId);
  if (!found) throw notFound();
  const participant = !!viewerId && found.players.some((p) => p.userId === viewerId && isRostered(p));
  const connect = await connectStateOf(ctx, ctx.db, found.match, found.players);
  const live = await leaverStateOf(ctx, ctx.db, found.match, found.players);
  const state = buildState(found.match, found.players, participant, connect, live);
  // Like server.connect, the team channels reach only the players (a spectator could listen in).
  if (participant) state.voice = await voiceStateOf(ctx.db, found.match);
  return state;
}

/** The map pool for a new match: MATCH_MAP_POOL if set, else the active stored maps. */
export async function mapPoolFor(db: Db, config: AppContext['config']): Promise<MapInfo[]> {
  const rows = await db.select().from(maps).orderBy(asc(maps.sortOrder), asc(maps.key));
  const nameOf = (key: string) =>
    rows.find((r) => r.key === key)?.name ?? DEFAULT_MAP_POOL.find((m) => m.key === key)?.name ?? key;
  if (config.MATCH_MAP_POOL) {
    const keys = [
      ...new Set(
        config.MATCH_MAP_POOL.split(',')
          .map((k) => k.trim())
          .filter(Boolean),
      ),
    ];
    if (keys.length > 0) return keys.map((key) => ({ key, name: nameOf(key) }));
  }
  const active = rows.filter((r) => r.active).map((r) => ({ key: r.key, name: r.name }));
  return active.length > 0 ? active : DEFAULT_MAP_POOL;
}

// ---- publishing --------------------------------------------------------------------------------

/** Sends MATCH_STATE to everyone in the room; participants get `server.connect`, others not. */
export async function publishState(ctx: AppContext, matchId: string): Promise<void> {
  const found = await loadMatch(ctx.db, matchId);
  if (!found) return;
  const members = new Set(found.players.filter(isRostered).map((p) => p.userId));
  const sockets = await ctx.realtime.io.in(matchRoom(matchId)).fetchSockets();
  if (sockets.length === 0) return;
  const connect = await connectStateOf(ctx, ctx.db, found.match, found.players);
  const live = await leaverStateOf(ctx, ctx.db, found.match, found.players);
  const full = {
    ...buildState(found.match, found.players, true, connect, live),
    voice: await voiceStateOf(ctx.db, found.match),
  };
  const open = buildState(found.match, found.players, false, connect, live);
  for (const s of sockets) s.emit('MATCH_STATE', s.data.userId && members.has(s.data.userId) ? full : open);
}

/** The players' status patches, all at once (presence writes them in one statement). */
const statusWrites =
  (ctx: AppContext, userIds: readonly string[], patch: (id: string) => UserStatusPatch) => () =>
    Promise.all(userIds.map((userId) => ctx.bus.emit('status.patch', { userId, patch: patch(userId) })));

/** statusWrites after the commit, awaited by whoever answers for the transaction. */
function patchAll(
  ctx: AppContext,
  after: After,
  userIds: readonly string[],
  patch: (id: string) => UserStatusPatch,
) {
  after.add(statusWrites(ctx, userIds, patch));
}

const clearedMatch = {
  active: false,
  matchId: null,
  status: null,
  map: null,
  score: { teamOne: 0, teamTwo: 0 },
} as const;

// ---- creation ----------------------------------------------------------------------------------

/** The roster columns writeMatches writes; the statistics and leave marks start at their defaults. */
const ROSTER_COLUMNS = [
  'matchId',
  'userId',
  'team',
  'captain',
  'pickNo',
  'name',
  'avatar',
  'steamId',
  'elo',
  'reliability',
] as const;

/** What new matches read before they are written: their players' reliability and the map pool. */
export interface MatchInputs {
  reliability: ReadonlyMap<string, number | null>;
  mapPool: MapInfo[];
}

/**
 * What new matches of these players read (MatchInputs): two statements sent together, one round
 * trip, which the queue sends with its own statements once it knows which phases complete
 * (issue 20).
 */
export async function readMatchInputs(
  ctx: AppContext,
  tx: Db,
  userIds: readonly string[],
): Promise<MatchInputs> {
  const [reliability, mapPool] = await sentTogether(reliabilityOf(tx, userIds), mapPoolFor(tx, ctx.config));
  return { reliability, mapPool };
}

/** A match about to be written (planMatches): its id, its ten and its captains. */
export interface PlannedMatch {
  id: string;
  userIds: readonly string[];
  captains: { teamOne: string; teamTwo: string };
}

/**
 * A new match for each ten accepted players: an id and the captains, the two highest-rated
 * (random tie-break); the lower-rated one leads team one and picks first. Nothing is written
 * yet (writeMatches), so the caller knows the ids before it sends its own statements.
 */
export function planMatches(
  rosters: readonly (readonly string[])[],
  users: ReadonlyMap<string, UserRow>,
): PlannedMatch[] {
  return rosters.map((userIds) => ({
    id: randomUUID(),
    userIds,
    captains: chooseCaptains(userIds.map((id) => ({ id, elo: users.get(id)?.elo ?? ELO_DEFAULT }))),
  }));
}

/**
 * Writes the planned matches inside the caller's transaction (the queue's, under its lock) and
 * arms their first pick deadlines: every step is one statement for all the matches, and all of
 * them are sent at once, so a burst of phases completing together costs one round trip (issue 20).
 * The rosters need not wait for the matches' insert: their foreign key to the match is checked
 * at the commit (migration 0028). `users` holds every player's row.
 */
export async function writeMatches(
  ctx: AppContext,
  tx: Db,
  after: After,
  planned: readonly PlannedMatch[],
  users: ReadonlyMap<string, UserRow>,
  { reliability, mapPool }: MatchInputs,
): Promise<void> {
  if (planned.length === 0) return;
  const now = ctx.clock.now();
  const order = ctx.config.PICK_ORDER;
  const deadline = now + ctx.config.PICK_TIMEOUT_MS;
  const nameOf = (uid: string) => users.get(uid)?.name ?? 'player';
  await sentTogether(
    tx.insert(matches).values(
      planned.map(({ id, captains }) => ({
        id,
        status: statusOf(MATCH_START.to),
        createdAt: now,
        teamOneName: `Team ${nameOf(captains.teamOne)}`,
        teamTwoName: `Team ${nameOf(captains.teamTwo)}`,
        turn: pickTurn(order, 0),
        deadline,
        pickIndex: 0,
        pickOrder: order,
        mapPool,
        bans: [],
      })),
    ),
    tx.execute(
      insertUnnested(
        matchPlayers,
        ROSTER_COLUMNS,
        planned.flatMap(({ id, userIds, captains }) =>
          userIds.map((uid) => {
            const u = users.get(uid);
            const team: TeamKey | null =
              uid === captains.teamOne ? 'teamOne' : uid === captains.teamTwo ? 'teamTwo' : null;
            return {
              matchId: id,
              userId: uid,
              team,
              captain: team !== null,
              pickNo: team !== null ? 0 : null,
              name: u?.name ?? 'player',
              avatar: u?.avatar ?? null,
              steamId: u?.steamId ?? null,
              elo: u?.elo ?? ELO_DEFAULT,
              reliability: reliability.get(uid) ?? null,
            };
          }),
        ),
      ),
    ),
    // MATCH_START's one effect: the first pick's deadline, a job row.
    runEffectsOf(
      ctx,
      tx,
      after,
      planned.map((m) => m.id),
      MATCH_START,
      { turn: { index: 0, deadline } },
    ),
  );
  const started = new Map(planned.flatMap((m) => m.userIds.map((uid) => [uid, m] as const)));
  // The accept that completed the phase is answered without waiting for these (After.background).
  after.background(
    statusWrites(ctx, [...started.keys()], (uid) => {
      const m = started.get(uid) as PlannedMatch;
      return {
        inQueue: false,
        match: {
          active: true,
          matchId: m.id,
          status: MATCH_START.to,
          map: null,
          score: { teamOne: 0, teamTwo: 0 },
        },
        teamOne: uid === m.captains.teamOne,
      };
    }),
  );
}

// ---- actions -----------------------------------------------------------------------------------

/**
 * A captain's move in `phase`, in one transaction on the locked match: 404 for an unknown match,
 * 409 WRONG_MATCH_PHASE in another phase, 403 NOT_A_PARTICIPANT / NOT_YOUR_TURN unless the caller
 * is the captain on turn; then `move` checks its own input and applies it.
 */
function captainMove(
  ctx: AppContext,
  userId: string,
  matchId: string,
  event: Extract<MatchEvent, 'pick' | 'ban'>,
  move: (tx: Db, after: After, match: MatchRow, players: PlayerRow[]) => Promise<void>,
): Promise<void> {
  return inTransaction(
    ctx.db,
    async (tx, after) => {
      const found = await lockedMatchOr404(tx, matchId);
      const { match, players } = found;
      // A move is a turn of the draft or the veto: refused in any other state.
      matchLifecycle.require(matchStateOf(match), event);
      const me = players.find((p) => p.userId === userId);
      if (!me) throw forbidden('NOT_A_PARTICIPANT');
      if (!me.captain || me.team !== match.turn) throw forbidden('NOT_YOUR_TURN');
      await move(tx, after, match, players);
    },
    logOf(ctx),
  );
}

/** A captain picks a player from the pool. */
export function pickPlayer(
  ctx: AppContext,
  userId: string,
  matchId: string,
  pickedId: string,
): Promise<void> {
  return captainMove(ctx, userId, matchId, 'pick', async (tx, after, match, players) => {
    const picked = players.find((p) => p.userId === pickedId);
    if (!picked || picked.team !== null) throw badRequest('INVALID_PICK');
    await ctx.jobs.cancel(tx, after, pickJob, { matchId, index: match.pickIndex });
    await applyPick(ctx, tx, after, match, players, picked, false);
  });
}

/** Deadline of pick `index`: the player who keeps the teams fairest goes to the captain on turn (fairness.ts). */
export async function pickTimedOut(ctx: AppContext, tx: Db, after: After, matchId: string, index: number) {
  const found = await loadMatch(tx, matchId, true);
  if (!found) return;
  const { match, players } = found;
  if (match.status !== 'playerveto' || match.pickIndex !== index) return; // stale
  const row = fairAutoPick(match, players);
  if (row) await applyPick(ctx, tx, after, match, players, row, true);
}

function fairAutoPick(match: MatchRow, players: PlayerRow[]): PlayerRow | null {
  const onTurn = match.turn ?? 'teamOne';
  const elos = (team: TeamKey) => players.filter((p) => p.team === team).map((p) => p.elo);
  return fairestPick(
    elos(onTurn),
    elos(otherTeam(onTurn)),
    players.filter((p) => p.team === null),
  );
}

async function applyPick(
  ctx: AppContext,
  tx: Db,
  after: After,
  match: MatchRow,
  players: PlayerRow[],
  picked: PlayerRow,
  auto: boolean,
): Promise<void> {
  const now = ctx.clock.now();
  const picks: { player: PlayerRow; team: TeamKey; auto: boolean }[] = [];
  let index = match.pickIndex;
  const take = async (p: PlayerRow, isAuto: boolean) => {
    const team = pickTurn(match.pickOrder, index) ?? 'teamOne';
    index++;
    await tx
      .update(matchPlayers)
      .set({ team, pickNo: index })
      .where(and(eq(matchPlayers.matchId, match.id), eq(matchPlayers.userId, p.userId)));
    p.team = team;
    p.pickNo = index;
    picks.push({ player: p, team, auto: isAuto });
  };
  await take(picked, auto);
  // The last player has nowhere else to go: assign them at once.
  const left = players.filter((p) => p.team === null);
  if (left.length === 1) await take(left[0], true);

  const room = matchRoom(match.id);
  after.add(() => {
    for (const p of picks)
      ctx.realtime.toRoom(room, 'MATCH_PICK_PLAYER', {
        matchId: match.id,
        team: p.team,
        player: toPlayer(p.player),
        auto: p.auto,
      });
  });

  // The picked players learn their team whatever comes next (a one-map pool returns early).
  patchAll(
    ctx,
    after,
    picks.map((p) => p.player.userId),
    (uid) => ({ teamOne: picks.find((p) => p.player.userId === uid)?.team === 'teamOne' }),
  );

  const done = players.every((p) => p.team !== null);
  if (done && match.mapPool.length <= 1) {
    // A one-map pool needs no veto.
    await tx.update(matches).set({ pickIndex: index }).where(eq(matches.id, match.id));
    await setMap(ctx, tx, after, match, players, match.mapPool[0] ?? DEFAULT_MAP_POOL[0]);
    return;
  }
  const next = matchLifecycle.require(matchStateOf(match), done ? 'teamsPicked' : 'pick');
  const status = statusOf(next.to);
  const turn = done ? banTurn(0) : pickTurn(match.pickOrder, index);
  const deadline = now + (done ? ctx.config.BAN_TIMEOUT_MS : ctx.config.PICK_TIMEOUT_MS);
  await runMatchEffects(ctx, tx, after, match.id, next, { turn: { index: done ? 0 : index, deadline } });
  await tx.update(matches).set({ pickIndex: index, status, turn, deadline }).where(eq(matches.id, match.id));
  after.add(() => {
    if (done) ctx.realtime.toRoom(room, 'MATCH_CHANGE_STATUS', { matchId: match.id, status });
    ctx.realtime.toRoom(room, 'MATCH_SET_COUNTDOWN', { matchId: match.id, deadline, turn });
  });
  after.add(() => publishState(ctx, match.id));
  if (done)
    patchAll(
      ctx,
      after,
      players.map((p) => p.userId),
      () => ({ match: { status: 'mapveto' } }),
    );
}

/** A captain bans a map. */
export function banMap(ctx: AppContext, userId: string, matchId: string, mapKey: string): Promise<void> {
  return captainMove(ctx, userId, matchId, 'ban', async (tx, after, match, players) => {
    if (!match.mapPool.some((m) => m.key === mapKey)) throw badRequest('INVALID_MAP');
    if (match.bans.some((b) => b.mapKey === mapKey)) throw conflict('MAP_ALREADY_BANNED');
    await ctx.jobs.cancel(tx, after, banJob, { matchId, index: match.bans.length });
    await applyBan(ctx, tx, after, match, players, mapKey, false);
  });
}

/** Deadline of ban `index`: a random remaining map is banned for the team on turn. */
export async function banTimedOut(ctx: AppContext, tx: Db, after: After, matchId: string, index: number) {
  const found = await loadMatch(tx, matchId, true);
  if (!found) return;
  const { match, players } = found;
  if (match.status !== 'mapveto' || match.bans.length !== index) return; // stale
  const left = remainingMaps(match.mapPool, match.bans);
  if (left.length === 0) return;
  const pick = left[Math.floor(Math.random() * left.length)];
  await applyBan(ctx, tx, after, match, players, pick.key, true);
}

async function applyBan(
  ctx: AppContext,
  tx: Db,
  after: After,
  match: MatchRow,
  players: PlayerRow[],
  mapKey: string,
  auto: boolean,
): Promise<void> {
  const team = banTurn(match.bans.length);
  const bans = [...match.bans, { mapKey, team }];
  const left = remainingMaps(match.mapPool, bans);
  const room = matchRoom(match.id);
  after.add(() => ctx.realtime.toRoom(room, 'MATCH_BAN_MAP', { matchId: match.id, team, mapKey, auto }));
  if (left.length > 1) {
    const next = matchLifecycle.require(matchStateOf(match), 'ban');
    const deadline = ctx.clock.now() + ctx.config.BAN_TIMEOUT_MS;
    const turn = banTurn(bans.length);
    await tx
      .update(matches)
      .set({ status: statusOf(next.to), bans, turn, deadline })
      .where(eq(matches.id, match.id));
    await runMatchEffects(ctx, tx, after, match.id, next, { turn: { index: bans.length, deadline } });
    after.add(() => ctx.realtime.toRoom(room, 'MATCH_SET_COUNTDOWN', { matchId: match.id, deadline, turn }));
    after.add(() => publishState(ctx, match.id));
    return;
  }
  await tx.update(matches).set({ bans }).where(eq(matches.id, match.id));
  await setMap(ctx, tx, after, { ...match, bans }, players, left[0]);
}

/** The last map is played: the match becomes active and a game server is requested. */
async function setMap(
  ctx: AppContext,
  tx: Db,
  after: After,
  match: MatchRow,
  players: PlayerRow[],
  map: MapInfo,
) {
  const next = matchLifecycle.require(matchStateOf(match), 'mapChosen');
  await tx
    .update(matches)
    .set({ mapKey: map.key, mapName: map.name, status: statusOf(next.to), turn: null, deadline: null })
    .where(eq(matches.id, match.id));
  await runMatchEffects(ctx, tx, after, match.id, next);
  const room = matchRoom(match.id);
  after.add(() => {
    ctx.realtime.toRoom(room, 'MATCH_SET_MAP', { matchId: match.id, map });
    ctx.realtime.toRoom(room, 'MATCH_CHANGE_STATUS', { matchId: match.id, status: 'active' });
    ctx.realtime.toRoom(room, 'MATCH_SET_COUNTDOWN', { matchId: match.id, deadline: null, turn: null });
  });
  after.add(() => publishState(ctx, match.id));
  patchAll(
    ctx,
    after,
    players.map((p) => p.userId),
    () => ({ match: { status: 'active', map: map.name } }),
  );
}

/** The game server is ready: store its addresses and tell the room (connect only to players). */
export async function setServer(
  ctx: AppContext,
  tx: Db,
  after: After,
  matchId: string,
  server: { provider: string; connect: string; gotv: string; secret: string },
): Promise<void> {
  // The caller holds the match row locked (allocation, a move, the MatchZy load).
  const found = await loadMatch(tx, matchId);
  if (!found) throw notFound();
  const next = matchLifecycle.require(matchStateOf(found.match), 'serverSet');
  await tx
    .update(matches)
    .set({
      provider: server.provider,
      serverConnect: server.connect,
      serverGotv: server.gotv,
      serverSecret: server.secret,
    })
    .where(eq(matches.id, matchId));
  await runMatchEffects(ctx, tx, after, matchId, next);
  const members = new Set(found.players.map((p) => p.userId));
  after.add(async () => {
    const sockets = await ctx.realtime.io.in(matchRoom(matchId)).fetchSockets();
    for (const s of sockets) {
      const participant = !!s.data.userId && members.has(s.data.userId);
      s.emit('MATCH_SERVER_AVAILABLE', {
        matchId,
        gotv: server.gotv,
        ...(participant ? { connect: server.connect } : {}),
      });
    }
  });
  after.add(() => publishState(ctx, matchId));
}

/**
 * Applies one round's result (ingestion): score, per-player totals and the round's own numbers.
 * `over`: the match's result is in already (MatchZy may post the last round after its map
 * result): only the players' numbers, the round and its number are stored; the score stays.
 */
export async function applyRound(
  ctx: AppContext,
  tx: Db,
  after: After,
  match: MatchRow,
  players: PlayerRow[],
  round: {
    number: number;
    score: { teamOne: number; teamTwo: number };
    winner: TeamKey | null;
    /** Cumulative totals per user id after this round. */
    totals: Map<string, Omit<RoundPlayerStats, 'userId'>>;
  },
  over = false,
): Promise<void> {
  const perRound: RoundPlayerStats[] = [];
  for (const p of players) {
    const t = round.totals.get(p.userId);
    if (!t) continue;
    perRound.push({
      userId: p.userId,
      kills: Math.max(0, t.kills - p.kills),
      deaths: Math.max(0, t.deaths - p.deaths),
      assists: Math.max(0, t.assists - p.assists),
      damage: Math.max(0, t.damage - p.damage),
      headshots: Math.max(0, t.headshots - p.headshots),
    });
    Object.assign(p, t);
    await tx
      .update(matchPlayers)
      .set(t)
      .where(and(eq(matchPlayers.matchId, match.id), eq(matchPlayers.userId, p.userId)));
  }
  await tx
    .insert(matchRounds)
    .values({
      matchId: match.id,
      round: round.number,
      scoreOne: round.score.teamOne,
      scoreTwo: round.score.teamTwo,
      winner: round.winner,
      players: perRound,
      createdAt: ctx.clock.now(),
    })
    .onConflictDoNothing();
  if (over) {
    await tx.update(matches).set({ round: round.number }).where(eq(matches.id, match.id));
    match.round = round.number;
    after.add(() => publishState(ctx, match.id));
    return;
  }
  await tx
    .update(matches)
    .set({ round: round.number, scoreOne: round.score.teamOne, scoreTwo: round.score.teamTwo })
    .where(eq(matches.id, match.id));
  match.round = round.number;
  match.scoreOne = round.score.teamOne;
  match.scoreTwo = round.score.teamTwo;
  const stats: PlayerStats[] = toStats(players);
  after.add(() =>
    ctx.realtime.toRoom(matchRoom(match.id), 'MATCH_SCORE_UPDATE', {
      matchId: match.id,
      score: round.score,
      round: round.number,
      stats,
    }),
  );
  after.add(() => publishState(ctx, match.id));
  patchAll(
    ctx,
    after,
    players.map((p) => p.userId),
    () => ({ match: { score: round.score } }),
  );
}

/** Marks the match live (going_live) and stores its predicted win probability; the live deadline is off. */
export async function markLive(ctx: AppContext, tx: Db, after: After, matchId: string): Promise<void> {
  const found = await loadMatch(tx, matchId);
  const next = found ? matchLifecycle.transition(matchStateOf(found.match), 'wentLive') : null;
  if (next?.ok) {
    await tx.update(matches).set({ liveAt: ctx.clock.now() }).where(eq(matches.id, matchId));
    await storeWinProbability(tx, matchId);
    await runMatchEffects(ctx, tx, after, matchId, next);
  } else {
    // Live already (a repeated going_live): only the live deadline is certainly off.
    await ctx.jobs.cancel(tx, after, liveJob, { matchId });
  }
  after.add(() => publishState(ctx, matchId));
}

/**
 * The live deadline: a match whose server has not gone live by now (players never connected, the
 * server hangs) is cancelled with SERVER_UNAVAILABLE, which frees the server (match.ended).
 */
export async function liveTimedOut(ctx: AppContext, tx: Db, after: After, matchId: string): Promise<void> {
  const found = await loadMatch(tx, matchId, true);
  const next = found && matchLifecycle.transition(matchStateOf(found.match), 'liveTimeout');
  if (!found || !next?.ok) return; // over, or live
  await cancelLoaded(ctx, tx, after, found, next, 'SERVER_UNAVAILABLE');
}

/**
 * A game event of this active match came in (ingestion): the server is alive, so the stale
 * deadline moves to MATCH_STALE_TIMEOUT_MS from now.
 */
export async function armStaleDeadline(
  ctx: AppContext,
  tx: Db,
  after: After,
  matchId: string,
): Promise<void> {
  if (ctx.config.MATCH_STALE_TIMEOUT_MS === 0) return;
  await ctx.jobs.reschedule(
    tx,
    after,
    staleJob,
    { matchId },
    ctx.clock.now() + ctx.config.MATCH_STALE_TIMEOUT_MS,
  );
}

/**
 * The stale deadline: no game event for MATCH_STALE_TIMEOUT_MS (the server crashed or hangs) — the
 * match is cancelled with SERVER_UNAVAILABLE, which frees the server (match.ended) and its players.
 */
export async function staleTimedOut(ctx: AppContext, tx: Db, after: After, matchId: string): Promise<void> {
  const found = await loadMatch(tx, matchId, true);
  const next = found && matchLifecycle.transition(matchStateOf(found.match), 'staleTimeout');
  if (!found || !next?.ok) return; // over already
  await cancelLoaded(ctx, tx, after, found, next, 'SERVER_UNAVAILABLE');
}

/**
 * The result: winners +ELO_WIN, losers −ELO_LOSS (a draw changes nothing), stored per player with
 * Elo before/after — for the players on the server for at least 80 % of the stored rounds; leavers
 * lose whatever the score (ratedOutcome). Each player gets PRIVATE_MATCH_RESULT. Runs once: a
 * finished match is left alone.
 */
export async function finishMatch(
  ctx: AppContext,
  tx: Db,
  after: After,
  match: MatchRow,
  players: PlayerRow[],
  winner: TeamKey | 'draw',
  score?: { teamOne: number; teamTwo: number },
): Promise<void> {
  const next = matchLifecycle.transition(matchStateOf(match), 'finish');
  if (!next.ok) return;
  const rules = eloRulesFromConfig(ctx.config);
  const [{ rounds }] = await tx
    .select({ rounds: count() })
    .from(matchRounds)
    .where(eq(matchRounds.matchId, match.id));
  const results: { userId: string; victory: boolean; oldElo: number; newElo: number }[] = [];
  for (const p of players) {
    if (p.team === null) continue;
    const outcome = ratedOutcome(p, winner, Number(rounds));
    if (outcome === 'unrated') {
      // Not rated (docs/contract.md §4): no Elo change and no Elo entry in the history.
      const elo = (await findUserById(tx, p.userId))?.elo ?? p.elo;
      results.push({ userId: p.userId, victory: winner === p.team, oldElo: elo, newElo: elo });
      continue;
    }
    const delta = eloDelta(outcome, rules);
    const elo = (await adjustElo(tx, p.userId, delta)) ?? { before: p.elo, after: p.elo };
    await tx
      .update(matchPlayers)
      .set({ eloBefore: elo.before, eloAfter: elo.after })
      .where(and(eq(matchPlayers.matchId, match.id), eq(matchPlayers.userId, p.userId)));
    results.push({ userId: p.userId, victory: outcome === true, oldElo: elo.before, newElo: elo.after });
  }
  const finishedAt = ctx.clock.now();
  await tx
    .update(matches)
    .set({
      status: statusOf(next.to),
      winner,
      finishedAt,
      turn: null,
      deadline: null,
      ...(score ? { scoreOne: score.teamOne, scoreTwo: score.teamTwo } : {}),
    })
    .where(eq(matches.id, match.id));
  match.status = statusOf(next.to);
  after.add(() => {
    for (const r of results)
      ctx.realtime.toUser(r.userId, 'PRIVATE_MATCH_RESULT', {
        victory: r.victory,
        oldElo: r.oldElo,
        newElo: r.newElo,
        matchId: match.id,
      });
    ctx.realtime.toRoom(matchRoom(match.id), 'MATCH_CHANGE_STATUS', {
      matchId: match.id,
      status: 'finished',
    });
  });
  // Each player's own profile follows the result (Elo and rank on their card), as after any other
  // change of their Profile fields.
  after.add(async () => {
    const ranks = await ranksOfUsers(
      ctx,
      results.map((r) => r.userId),
      { fresh: true },
    );
    for (const r of results)
      ctx.realtime.toUser(r.userId, 'privateUserUpdate', {
        stats: { elo: r.newElo },
        rank: ranks.get(r.userId) ?? null,
      });
  });
  after.add(() => publishState(ctx, match.id));
  // A replaced leaver's status was cleared when the substitute came (they may be elsewhere now).
  patchAll(
    ctx,
    after,
    players.filter(isRostered).map((p) => p.userId),
    () => ({ match: { ...clearedMatch }, teamOne: false }),
  );
  await runMatchEffects(ctx, tx, after, match.id, next);
}

/** Cancels the match if it is still live (see cancelLoaded); false when it is unknown or over. */
export async function cancelMatchTx(
  ctx: AppContext,
  tx: Db,
  after: After,
  matchId: string,
  reason: MatchCancelReason,
): Promise<boolean> {
  const found = await loadMatch(tx, matchId, true);
  const next = found && matchLifecycle.transition(matchStateOf(found.match), 'cancel');
  if (!found || !next?.ok) return false;
  await cancelLoaded(ctx, tx, after, found, next, reason);
  return true;
}

/**
 * Cancels a live match, loaded and locked by the caller (no Elo change): the room gets
 * MATCH_CANCELLED, players are free again, and `match.ended` frees its game server. Every
 * cancellation goes through here.
 */
async function cancelLoaded(
  ctx: AppContext,
  tx: Db,
  after: After,
  found: { match: MatchRow; players: PlayerRow[] },
  next: MatchTransition,
  reason: MatchCancelReason,
): Promise<void> {
  const matchId = found.match.id;
  await tx
    .update(matches)
    .set({
      status: statusOf(next.to),
      cancelReason: reason,
      turn: null,
      deadline: null,
      finishedAt: ctx.clock.now(),
    })
    .where(eq(matches.id, matchId));
  after.add(() => {
    ctx.realtime.toRoom(matchRoom(matchId), 'MATCH_CANCELLED', { matchId, reason });
    ctx.realtime.toRoom(matchRoom(matchId), 'MATCH_CHANGE_STATUS', { matchId, status: 'cancelled' });
  });
  after.add(() => publishState(ctx, matchId));
  patchAll(
    ctx,
    after,
    found.players.filter((p) => p.replacedAt === null).map((p) => p.userId),
    () => ({ match: { ...clearedMatch }, teamOne: false }),
  );
  await runMatchEffects(ctx, tx, after, matchId, next, { reason });
}

export function cancelMatch(ctx: AppContext, matchId: string, reason: MatchCancelReason): Promise<boolean> {
  return inTransaction(ctx.db, (tx, after) => cancelMatchTx(ctx, tx, after, matchId, reason), logOf(ctx));
}

/**
 * An admin ends a match that is stuck (or must not be played): cancelled with ADMIN_CANCELLED like
 * any other cancellation — the room sees it live, the players are free, the server is freed.
 * 404 for an unknown match, 409 WRONG_MATCH_PHASE for one that is over already.
 */
export function cancelMatchByAdmin(ctx: AppContext, matchId: string): Promise<void> {
  return inTransaction(
    ctx.db,
    async (tx, after) => {
      const found = await lockedMatchOr404(tx, matchId);
      const next = matchLifecycle.require(matchStateOf(found.match), 'cancel');
      await cancelLoaded(ctx, tx, after, found, next, 'ADMIN_CANCELLED');
    },
    logOf(ctx),
  );
}

/**
 * A participant asks for an admin: every online admin gets ADMIN_HELP in their private room, at
 * most once a minute per player and match.
 */
export async function requestHelp(
  ctx: AppContext,
  userId: string,
  matchId: string,
  msg: string,
): Promise<void> {
  const found = await loadMatch(ctx.db, matchId);
  if (!found) throw notFound();
  const me = found.players.find((p) => p.userId === userId);
  if (!me) throw forbidden('NOT_A_PARTICIPANT');
  // One call per player and match a minute, counted in the database (every instance): each call
  // raises a toast with a sound at every admin, and fifty of them in a row helped nobody.
  if ((await countCall(ctx, `help:${matchId}:${userId}`, ctx.clock.now())) > 1)
    throw new AppError(429, 'TOO_MANY_REQUESTS');
  const user = await findUserById(ctx.db, userId);
  const admins = await findUserIdsByRole(ctx.db, 'ADMIN');
  ctx.realtime.toUsers(admins, 'ADMIN_HELP', { username: user?.name ?? me.name, msg, matchId });
}
