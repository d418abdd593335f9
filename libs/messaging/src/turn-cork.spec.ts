import { TurnCork } from './turn-cork';

describe('TurnCork', () => {
  it('sends what was given during one turn together right after it, in order, and the next turn on its own', async () => {
    const cork = new TurnCork();
    const sent: string[] = [];
    cork.run(() => sent.push('a'));
    await Promise.resolve(); // microtasks of the same turn: still held
    cork.run(() => sent.push('b'));
    expect(sent).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual(['a', 'b']);
    cork.run(() => sent.push('c'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual(['a', 'b', 'c']);
  });
});
