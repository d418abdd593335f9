import { DomainError } from '@app/contracts';
import { Decider, foldEvents } from '@app/decider';

/**
 * Given / when / then for a decider, in the shape event-sourcing samples use:
 *
 *   const spec = deciderSpec(postDecider);
 *   spec.given([created]).when(publish).then([publishRequested]);
 *   spec.given([created, deleted]).when(publish).thenRefuses('post_not_found');
 *
 * `then` compares the decided events with toEqual; `thenRefuses` expects a DomainError with
 * that code (and answers it, to check its message or details) and no events.
 */
export function deciderSpec<C, E, S>(decider: Decider<C, E, S>) {
  return {
    given(events: readonly E[]) {
      const state = foldEvents(decider, events);
      return {
        /** The state the given events fold to (for checks on evolve). */
        state,
        when(command: C) {
          const decide = (): E[] => decider.decide(command, state);
          return {
            /** The decided events, for assertions `then` cannot express (toMatchObject, lengths). */
            events: (): E[] => decide(),
            then(expected: readonly E[]): void {
              expect(decide()).toEqual(expected);
            },
            thenNothing(): void {
              expect(decide()).toEqual([]);
            },
            thenRefuses(code: string): DomainError {
              let decided: E[] | undefined;
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
