/**
 * The decider pattern (Jérémie Chassaing's "functional event sourcing decider"): an aggregate is
 * three pure functions over its own command, event and state types. Storage, retries and
 * messaging live outside it (libs/event-store's command runner loads, decides and appends).
 *
 * - `decide(command, state)` answers the events the command produces, or throws a DomainError
 *   (a refusal: nothing is appended);
 * - `evolve(state, event)` folds one event into the state (never throws, never refuses: history is fact);
 * - `initialState()` is the state of a stream with no events.
 */
export interface Decider<C, E, S> {
  decide(command: C, state: S): E[];
  evolve(state: S, event: E): S;
  initialState(): S;
}

/** The state after `events`, from the decider's initial state. */
export function foldEvents<E, S>(decider: Pick<Decider<unknown, E, S>, 'evolve' | 'initialState'>, events: readonly E[]): S {
  return events.reduce(decider.evolve, decider.initialState());
}
