/**
 * The match lifecycle as a transitions table (docs/architecture.md, "State machines"). Every
 * change of a match's status — and of the stage of an active match — is looked up here first;
 * a change the table does not list is refused with WRONG_MATCH_PHASE (409).
 *
 * States: the match statuses of @openpug/shared, with `active` split into its stages:
 *   allocating — the map is set, no game server has taken the match yet (job `match.allocate`);
 *   waiting    — a server is set (connect, GOTV, webhook secret), the game has not gone live:
 *                the players are connecting (the connect deadline, the live deadline);
 *   live       — the server reported going_live: rounds, leavers, substitutes, the stale deadline.
 * The stage is not a column of its own: it is what the server columns and `live_at` say, read
 * through `matchStateOf` (SQL: `inMatchStates`) alone, so it can never disagree with them; they
 * are written by the transitions that change the stage (serverSet, wentLive, serverMoved).
 */
import { type MatchStatus, matchStatuses } from '@openpug/shared';
import { and, eq, isNotNull, isNull, or, type SQL } from 'drizzle-orm';
import { defineMachine, type Transition, type TransitionTable } from '../../lib/machine';
import { matches } from './schema';

export const ACTIVE_STAGES = ['allocating', 'waiting', 'live'] as const;
export type ActiveStage = (typeof ACTIVE_STAGES)[number];

export type MatchLifecycleState = Exclude<MatchStatus, 'active'> | ActiveStage;

/** Every state of the table, in lifecycle order: the statuses with `active` replaced by its stages. */
export const MATCH_LIFECYCLE_STATES: readonly MatchLifecycleState[] = matchStatuses.flatMap((s) =>
  s === 'active' ? [...ACTIVE_STAGES] : [s],
);

export const MATCH_EVENTS = [
  /** A captain's pick (or the auto-pick) with players left in the pool. */
  'pick',
  /** The last player is picked and the pool has more than one map: the veto starts. */
  'teamsPicked',
  /** A ban (or the auto-ban) with more than one map left. */
  'ban',
  /** The map is settled (last ban, or a one-map pool after the picks): a server is wanted. */
  'mapChosen',
  /** A game server took the match (allocation, or the MatchZy load moved on to another server). */
  'serverSet',
  /** The server reported going_live. */
  'wentLive',
  /** An admin moves the match to another server: its game starts over. */
  'serverMoved',
  /** A result: the game's map result, or an admin's. */
  'finish',
  /** Called off: no server, a no-show nobody replaced, an admin, a failed load. */
  'cancel',
  /** The live deadline: the server did not go live in MATCH_LIVE_TIMEOUT_MS. */
  'liveTimeout',
  /** The stale deadline: no game event for MATCH_STALE_TIMEOUT_MS. */
  'staleTimeout',
  /** An admin swaps a player of a match that is not over. */
  'swap',
  /** An admin corrects a finished match's result. */
  'correct',
  /** An admin voids a finished match (its Elo is reverted). */
  'void',
] as const;
export type MatchEvent = (typeof MATCH_EVENTS)[number];

export const MATCH_EFFECTS = [
  /** Job `match.pick` for the next pick. */
  'armPickDeadline',
  /** Job `match.ban` for the next ban. */
  'armBanDeadline',
  /** Job `match.allocate`, due now. */
  'requestServer',
  /** Job `match.live` (when MATCH_LIVE_TIMEOUT_MS is on). */
  'armLiveDeadline',
  /** Job `match.live` off. */
  'disarmLiveDeadline',
  /** Every job of the match off (the old game's deadlines). */
  'dropDeadlines',
  /** Jobs `match.live` and `match.stale` off. */
  'endDeadlines',
  /** Bus `match.ended` after commit: the server is freed, listeners learn the match is over. */
  'announceEnded',
  /** Job `voice.channels` (when match voice channels are on): a TeamSpeak channel per team. */
  'openVoiceChannels',
] as const;
export type MatchEffect = (typeof MATCH_EFFECTS)[number];

const over = { to: 'cancelled', effects: ['endDeadlines', 'announceEnded'] } as const;
const finish = { to: 'finished', effects: ['endDeadlines', 'announceEnded'] } as const;
const setServer = { to: 'waiting', effects: ['armLiveDeadline'] } as const;
const move = { to: 'allocating', effects: ['dropDeadlines'] } as const;
const stay = <S extends MatchLifecycleState>(to: S) => ({ to, effects: [] as const });

export const MATCH_TRANSITIONS: TransitionTable<MatchLifecycleState, MatchEvent, MatchEffect> = {
  playerveto: {
    pick: { to: 'playerveto', effects: ['armPickDeadline'] },
    teamsPicked: { to: 'mapveto', effects: ['armBanDeadline'] },
    mapChosen: { to: 'allocating', effects: ['requestServer'] },
    cancel: over,
    swap: stay('playerveto'),
  },
  mapveto: {
    ban: { to: 'mapveto', effects: ['armBanDeadline'] },
    mapChosen: { to: 'allocating', effects: ['requestServer'] },
    cancel: over,
    swap: stay('mapveto'),
  },
  allocating: {
    serverSet: setServer,
    finish,
    cancel: over,
    liveTimeout: over,
    staleTimeout: over,
    swap: stay('allocating'),
  },
  waiting: {
    serverSet: setServer,
    wentLive: { to: 'live', effects: ['disarmLiveDeadline', 'openVoiceChannels'] },
    serverMoved: move,
    finish,
    cancel: over,
    liveTimeout: over,
    staleTimeout: over,
    swap: stay('waiting'),
  },
  live: {
    serverMoved: move,
    finish,
    cancel: over,
    staleTimeout: over,
    swap: stay('live'),
  },
  finished: {
    correct: stay('finished'),
    void: { to: 'cancelled', effects: [] },
  },
  cancelled: {},
};

export const matchLifecycle = defineMachine(MATCH_TRANSITIONS, 'WRONG_MATCH_PHASE');
export type MatchTransition = Transition<MatchLifecycleState, MatchEffect>;

/** The lifecycle state of a stored match: its status, and for an active one its stage. */
export function matchStateOf(m: {
  status: MatchStatus;
  serverGotv: string | null;
  liveAt: number | null;
}): MatchLifecycleState {
  if (m.status !== 'active') return m.status;
  if (m.liveAt !== null) return 'live';
  return m.serverGotv !== null ? 'waiting' : 'allocating';
}

/** The same reading as matchStateOf, as a condition on the `matches` table: in one of `states`. */
export function inMatchStates(...states: MatchLifecycleState[]): SQL | undefined {
  const active = eq(matches.status, 'active');
  const condition = (state: MatchLifecycleState): SQL | undefined => {
    switch (state) {
      case 'allocating':
        return and(active, isNull(matches.liveAt), isNull(matches.serverGotv));
      case 'waiting':
        return and(active, isNull(matches.liveAt), isNotNull(matches.serverGotv));
      case 'live':
        return and(active, isNotNull(matches.liveAt));
      default:
        return eq(matches.status, state);
    }
  };
  return or(...states.map(condition));
}

/** The stored status of a lifecycle state. */
export const statusOf = (state: MatchLifecycleState): MatchStatus =>
  (ACTIVE_STAGES as readonly string[]).includes(state) ? 'active' : (state as MatchStatus);

/** A new match (writeMatches): it starts in the player draft, the first pick's deadline armed. */
export const MATCH_START = {
  to: 'playerveto',
  effects: ['armPickDeadline'],
} as const satisfies Transition<MatchLifecycleState, MatchEffect>;

/** Active and the game not live yet: a server is wanted or its players are connecting. */
export const beforeLive = (state: MatchLifecycleState) => state === 'allocating' || state === 'waiting';
