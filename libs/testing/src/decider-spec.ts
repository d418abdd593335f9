import { DomainError, ErrorCode } from '@app/contracts';
import { Decider, foldEvents } from '@app/decider';

/**
 * Given / when / then for a decider, in the shape event-sourcing samples use:
 *
 *   const spec = deciderSpec(postDecider);
 *   spec.given([created]).when(publish).then([publishRequested]);
 *   spec.given([created, deleted]).when(publish).thenRefuses('not_found');
 *
 * `then` compares the decided events with toEqual (asymmetric matchers such as
 * expect.objectContaining work) and answers them; `thenRefuses` expects a DomainError with that
 * code and no events (a refusal appends nothing), and answers the error to check its message or
 * details. Every decided event is also folded with evolve, so a decision evolve cannot apply fails.
 */
export function deciderSpec<C, E, S>(decider: Decider<C, E, S>) {
  return {
    given(events: readonly E[]) {
      const state = foldEvents(decider, events);
      return {
        /** The state the given events fold to (for checks on evolve). */
        state,
        when(command: C) {
          const decide = (): E[] => {
            const decided = decider.decide(command, state);
            decided.reduce(decider.evolve, state);
            return decided;
          };
          return {
            /** The decided events, for assertions `then` cannot express (toMatchObject, lengths). */
            events: (): E[] => decide(),
            /** The given events followed by the decided ones: the next `given` of a longer story. */
            history: (): E[] => [...events, ...decide()],
            /** The state after the decided events (for checks on what the decision leaves). */
            stateAfter: (): S => decide().reduce(decider.evolve, state),
            then(expected: readonly E[]): E[] {
              const decided = decide();
              expect(decided).toEqual(expected);
              return decided;
            },
            thenNothing(): void {
              expect(decide()).toEqual([]);
            },
            thenRefuses(code: ErrorCode): DomainError {
              let decided: E[];
              try {
                decided = decide();
              } catch (error) {
                if (!(error instanceof DomainError)) throw error;
                expect(error.code).toBe(code);
                return error;
              }
              throw new Error(`expected a refusal with ${code}, got ${JSON.stringify(decided)}`);
            },
          };
        },
      };
    },
  };
}
