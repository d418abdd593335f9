import { StreamCache } from './command-runner-cache';

describe('StreamCache (the streams a command runner remembers)', () => {
  const known = (count: number) => ({ state: { count }, expected: BigInt(count), position: `${count}:${count}` });

  it('forgets the least recently used stream once over capacity', () => {
    const cache = new StreamCache<{ count: number }>(2);
    cache.set('a', known(1));
    cache.set('b', known(2));
    cache.set('a', known(3)); // a is now the most recent
    cache.set('c', known(4));
    expect(cache.take('b')).toBeNull();
    expect(cache.take('a')).toEqual(known(3));
    expect(cache.take('c')).toEqual(known(4));
  });

  it('hands an entry out once: a batch that takes it must put back what it wrote', () => {
    const cache = new StreamCache<{ count: number }>(2);
    cache.set('a', known(1));
    expect(cache.take('a')).toEqual(known(1));
    expect(cache.take('a')).toBeNull();
  });
});
