/**
 * State machines as plain data: a transitions table (state × event → next state + effects) and
 * one lookup. Cells the table leaves out are refused with the machine's catalogue key. Used by
 * the match lifecycle (modules/matches/lifecycle.ts) and the accept phase
 * (modules/queue/accept-phase.ts).
 */
import type { ErrorKey } from '@openpug/shared';
import { conflict } from './errors';

export interface Transition<S extends string, F extends string> {
  readonly to: S;
  /** What the change entails besides the new state, carried out by the caller. */
  readonly effects: readonly F[];
}

export type TransitionTable<S extends string, E extends string, F extends string> = {
  readonly [state in S]: { readonly [event in E]?: Transition<S, F> };
};

export type Outcome<S extends string, F extends string> =
  | ({ readonly ok: true } & Transition<S, F>)
  | { readonly ok: false; readonly key: ErrorKey };

export interface Machine<S extends string, E extends string, F extends string> {
  readonly table: TransitionTable<S, E, F>;
  /** The catalogue key an illegal transition is refused with (409). */
  readonly refusal: ErrorKey;
  /** The next state and effects of `event` in `state`, or the refusal. */
  transition(state: S, event: E): Outcome<S, F>;
  /** As `transition`, but an illegal transition throws the refusal (409 with its key). */
  require(state: S, event: E): Transition<S, F>;
}

export function defineMachine<S extends string, E extends string, F extends string>(
  table: TransitionTable<S, E, F>,
  refusal: ErrorKey,
): Machine<S, E, F> {
  const transition = (state: S, event: E): Outcome<S, F> => {
    const cell = table[state]?.[event];
    return cell ? { ok: true, ...cell } : { ok: false, key: refusal };
  };
  return {
    table,
    refusal,
    transition,
    require(state, event) {
      const outcome = transition(state, event);
      if (!outcome.ok) throw conflict(outcome.key);
      return outcome;
    },
  };
}
