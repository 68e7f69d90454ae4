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
}

export type QueueAction =
  | { type: 'restore'; state: QueueState; now: number }
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
};

export function queueReducer(state: QueueView, action: QueueAction): QueueView {
  switch (action.type) {
    case 'restore':
      return {
        ...state,
        count: action.state.count,
        inQueue: action.state.inQueue,
        joinedAt: action.state.inQueue ? (action.state.joinedAt ?? action.now) : null,
        phase: action.state.phase,
        cooldown: action.state.cooldown,
      };
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
