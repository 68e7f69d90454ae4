/**
 * The queue widget's state (docs/contract.md §4 "Queue and match"): in queue or not, the public count, the
 * running accept phase and the kick/timeout notices. `queueReducer` is pure (unit-tested); the
 * zustand store applies it to the server's events.
 */
import {
  type Cooldown,
  type QueuePlayer,
  type QueueState,
  TIMEOUT_DIALOG_CLOSE_MS,
  type UnreadyProfile,
} from '@openpug/shared';
import { create } from 'zustand';

export interface AcceptPhase {
  players: QueuePlayer[];
  /** Epoch ms at which the phase ends. */
  deadline: number;
}

export interface QueueView {
  inQueue: boolean;
  count: number;
  /** Epoch ms of joining (elapsed time); null when not queued. */
  joinedAt: number | null;
  phase: AcceptPhase | null;
  /** The aborted-game dialog ("Du hast nicht rechtzeitig akzeptiert"). */
  kicked: boolean;
  /** The players who did not accept (timeout dialog), or null. */
  timedOut: UnreadyProfile[] | null;
  /** A request is on its way (buttons wait). */
  busy: boolean;
  /** Joining was refused for want of a linked Steam account (the Steam dialog is open). */
  steamRequired: boolean;
  /** The running queue cooldown (why and until when), or null. */
  cooldown: Cooldown | null;
  /** The server's live events applied so far, by what they tell (see `restore`). */
  seen: EventsSeen;
}

/**
 * How many live events told the count, and how many told the player's place (ack, accept phase,
 * match, cooldown). A GET /api/queue answer is read before the events that arrive while it
 * travels: its fields that such an event told are older than the event, and are not applied.
 */
export interface EventsSeen {
  count: number;
  place: number;
}

export type QueueAction =
  /** `since`: `seen` when the GET /api/queue that answered `state` was sent. */
  | { type: 'restore'; state: QueueState; now: number; since: EventsSeen }
  | { type: 'count'; count: number }
  | { type: 'ack'; inQueue: boolean; count: number; now: number }
  | { type: 'ready'; players: QueuePlayer[]; deadline: number }
  | { type: 'readyUpdate'; players: QueuePlayer[] }
  | { type: 'kick' }
  | { type: 'timeout'; unreadyProfiles: UnreadyProfile[] }
  | { type: 'match' }
  | { type: 'busy'; busy: boolean }
  | { type: 'steamRequired'; open: boolean }
  | { type: 'cooldown'; cooldown: Cooldown | null }
  | { type: 'dismiss' }
  | { type: 'reset' };

export const initialQueue: QueueView = {
  inQueue: false,
  count: 0,
  joinedAt: null,
  phase: null,
  kicked: false,
  timedOut: null,
  busy: false,
  steamRequired: false,
  cooldown: null,
  seen: { count: 0, place: 0 },
};

/** The actions that are live events, and what each tells (EventsSeen). */
const TELLS: Partial<Record<QueueAction['type'], { count?: true; place?: true }>> = {
  count: { count: true },
  ack: { count: true, place: true },
  ready: { place: true },
  readyUpdate: { place: true },
  kick: { place: true },
  timeout: { place: true },
  match: { place: true },
  cooldown: { place: true },
};

/** Whether an answer read when `since` was current is as new as every event applied since. */
export const placeIsCurrent = (state: QueueView, since: EventsSeen): boolean =>
  state.seen.place === since.place;

export function queueReducer(state: QueueView, action: QueueAction): QueueView {
  const tells = TELLS[action.type];
  const next = applyAction(state, action);
  if (!tells) return next;
  return {
    ...next,
    seen: { count: next.seen.count + (tells.count ? 1 : 0), place: next.seen.place + (tells.place ? 1 : 0) },
  };
}

function applyAction(state: QueueView, action: QueueAction): QueueView {
  switch (action.type) {
    case 'restore': {
      // Each field the answer holds is applied unless a live event told it after the read was sent.
      const { state: read, since } = action;
      const count = state.seen.count === since.count ? read.count : state.count;
      if (!placeIsCurrent(state, since)) return { ...state, count };
      return {
        ...state,
        count,
        inQueue: read.inQueue,
        joinedAt: read.inQueue ? (read.joinedAt ?? action.now) : null,
        phase: read.phase,
        cooldown: read.cooldown,
      };
    }
    case 'count':
      return { ...state, count: action.count };
    case 'ack':
      return {
        ...state,
        busy: false,
        count: action.count,
        inQueue: action.inQueue,
        joinedAt: action.inQueue ? (state.joinedAt ?? action.now) : null,
        phase: action.inQueue ? state.phase : null,
      };
    case 'ready':
      return { ...state, inQueue: true, phase: { players: action.players, deadline: action.deadline } };
    case 'readyUpdate':
      return state.phase ? { ...state, phase: { ...state.phase, players: action.players } } : state;
    case 'kick':
      return { ...state, phase: null, inQueue: false, joinedAt: null, kicked: true, timedOut: null };
    case 'timeout':
      // Those who accepted keep their place in the queue.
      return { ...state, phase: null, timedOut: action.unreadyProfiles };
    case 'match':
      return { ...state, phase: null, inQueue: false, joinedAt: null };
    case 'busy':
      return { ...state, busy: action.busy };
    case 'steamRequired':
      return { ...state, steamRequired: action.open };
    case 'cooldown':
      return { ...state, cooldown: action.cooldown };
    case 'dismiss':
      return { ...state, kicked: false, timedOut: null };
    case 'reset':
      return initialQueue;
  }
}

/** How many of the phase's players accepted. */
export const readyCount = (phase: AcceptPhase): number => phase.players.filter((p) => p.accepted).length;

/** Whether `userId` already accepted in this phase. */
export const hasAccepted = (phase: AcceptPhase, userId: string | undefined): boolean =>
  phase.players.some((p) => p.userId === userId && p.accepted);

export const useQueue = create<QueueView>(() => initialQueue);

export function dispatchQueue(action: QueueAction): void {
  useQueue.setState((s) => queueReducer(s, action), true);
}

/** Timeout dialog auto-close (docs/contract.md §9). */
export const TIMEOUT_DIALOG_MS = TIMEOUT_DIALOG_CLOSE_MS;
