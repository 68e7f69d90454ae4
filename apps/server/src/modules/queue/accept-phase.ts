/**
 * The accept phase as a transitions table (docs/architecture.md, "State machines"). A phase
 * starts `open` for the first ten free players in queue order and ends once: matched (all ten
 * accepted), declined (one declined) or timedout (the deadline, job `queue.accept`). Every change
 * of a phase's status is looked up here first; the service refuses a cell the table does not
 * list with NO_ACCEPT_PHASE (409), or ignores it where the event is a stale deadline.
 */
import { defineMachine, type TransitionTable } from '../../lib/machine';

export const ACCEPT_PHASE_STATUSES = ['open', 'matched', 'timedout', 'declined'] as const;
export type AcceptPhaseStatus = (typeof ACCEPT_PHASE_STATUSES)[number];

/** A phase is created open (the queue's formPhases). */
export const ACCEPT_PHASE_INITIAL = 'open' satisfies AcceptPhaseStatus;

export const ACCEPT_PHASE_EVENTS = [
  /** A player accepts and others of the ten have not yet. */
  'accept',
  /** The tenth accept: the ten leave the queue into a new match. */
  'complete',
  /** A player declines: the others are free again and keep their places. */
  'decline',
  /** A player leaves the queue during the phase. */
  'leave',
  /** A player is taken out without a fault of theirs (a ban). */
  'remove',
  /** The deadline passed: the unaccepted leave the queue, the accepted keep their places. */
  'timeout',
] as const;
export type AcceptPhaseEvent = (typeof ACCEPT_PHASE_EVENTS)[number];

export const ACCEPT_PHASE_EFFECTS = [
  /** Job `queue.accept` off. */
  'cancelDeadline',
  /** A miss and its cooldown for whoever did not accept (the decliner, the leaver, the late). */
  'recordMiss',
  /** New phases for the next free ten, if ten are free. */
  'formPhases',
] as const;
export type AcceptPhaseEffect = (typeof ACCEPT_PHASE_EFFECTS)[number];

export const ACCEPT_PHASE_TRANSITIONS: TransitionTable<
  AcceptPhaseStatus,
  AcceptPhaseEvent,
  AcceptPhaseEffect
> = {
  open: {
    accept: { to: 'open', effects: [] },
    complete: { to: 'matched', effects: ['cancelDeadline'] },
    decline: { to: 'declined', effects: ['cancelDeadline', 'recordMiss', 'formPhases'] },
    leave: { to: 'open', effects: ['recordMiss'] },
    remove: { to: 'open', effects: [] },
    timeout: { to: 'timedout', effects: ['recordMiss', 'formPhases'] },
  },
  matched: {},
  timedout: {},
  declined: {},
};

export const acceptPhase = defineMachine(ACCEPT_PHASE_TRANSITIONS, 'NO_ACCEPT_PHASE');

/** Whether an accepted transition entails `effect`. */
export const entails = (transition: { effects: readonly AcceptPhaseEffect[] }, effect: AcceptPhaseEffect) =>
  transition.effects.includes(effect);
