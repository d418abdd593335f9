import { DomainError } from '@app/contracts';
import { Decider } from '@app/decider';
import { deciderSpec } from './decider-spec';

/** A counter that refuses to go below zero: just enough decider to exercise every branch of the helper. */
type CounterCommand = { type: 'Add'; by: number } | { type: 'Crash' };
type CounterEvent = { type: 'Added'; by: number } | { type: 'Unfoldable' };
const counter: Decider<CounterCommand, CounterEvent, number> = {
  initialState: () => 0,
  evolve: (total, event) => {
    if (event.type === 'Unfoldable') throw new Error('evolve cannot apply Unfoldable');
    return total + event.by;
  },
  decide: (command, total) => {
    if (command.type === 'Crash') throw new TypeError('a bug, not a refusal');
    if (command.by === 0) return [];
    if (command.by === 99) return [{ type: 'Unfoldable' }];
    if (total + command.by < 0) throw new DomainError('invalid_body', `the total would be ${total + command.by}`);
    return [{ type: 'Added', by: command.by }];
  },
};
const spec = deciderSpec(counter);
const added = (by: number): CounterEvent => ({ type: 'Added', by });

describe('deciderSpec', () => {
  it('folds the given events into the state', () => {
    expect(spec.given([added(2), added(3)]).state).toBe(5);
    expect(spec.given([]).state).toBe(0);
  });

  it('then passes on the decided events, answers them, and fails on others', () => {
    expect(spec.given([added(1)]).when({ type: 'Add', by: 2 }).then([added(2)])).toEqual([added(2)]);
    expect(() => spec.given([]).when({ type: 'Add', by: 2 }).then([added(3)])).toThrow();
    expect(() => spec.given([]).when({ type: 'Add', by: 2 }).then([])).toThrow();
  });

  it('then accepts asymmetric matchers', () => {
    spec.given([]).when({ type: 'Add', by: 4 }).then([expect.objectContaining({ type: 'Added' })]);
  });

  it('thenNothing passes on no events and fails when events come', () => {
    spec.given([added(1)]).when({ type: 'Add', by: 0 }).thenNothing();
    expect(() => spec.given([]).when({ type: 'Add', by: 1 }).thenNothing()).toThrow();
  });

  it('thenRefuses answers the DomainError with the expected code', () => {
    const error = spec.given([added(1)]).when({ type: 'Add', by: -2 }).thenRefuses('invalid_body');
    expect(error.message).toBe('the total would be -1');
  });

  it('thenRefuses fails when no refusal comes, naming the events decided instead', () => {
    expect(() => spec.given([]).when({ type: 'Add', by: 1 }).thenRefuses('invalid_body')).toThrow(
      'expected a refusal with invalid_body, got [{"type":"Added","by":1}]',
    );
    expect(() => spec.given([]).when({ type: 'Add', by: 0 }).thenRefuses('invalid_body')).toThrow('expected a refusal with invalid_body, got []');
  });

  it('thenRefuses fails on a refusal with another code', () => {
    expect(() => spec.given([]).when({ type: 'Add', by: -1 }).thenRefuses('not_found')).toThrow(/invalid_body/);
  });

  it('thenRefuses lets an error that is not a refusal through (a bug is not a refusal)', () => {
    expect(() => spec.given([]).when({ type: 'Crash' }).thenRefuses('invalid_body')).toThrow(TypeError);
  });

  it('fails a decision that evolve cannot apply', () => {
    expect(() => spec.given([]).when({ type: 'Add', by: 99 }).then([{ type: 'Unfoldable' }])).toThrow('evolve cannot apply Unfoldable');
  });

  it('answers the history and the state after the decision, for longer stories', () => {
    const when = spec.given([added(1)]).when({ type: 'Add', by: 2 });
    expect(when.history()).toEqual([added(1), added(2)]);
    expect(when.stateAfter()).toBe(3);
    expect(when.events()).toEqual([added(2)]);
  });
});
