import { LastWritten } from './last-written';

describe('LastWritten (a command runner’s streams, the projector’s post rows)', () => {
  const known = (count: number) => ({ state: { count }, expected: BigInt(count), position: `${count}:${count}` });

  it('forgets the least recently written value once over capacity', () => {
    const cache = new LastWritten<ReturnType<typeof known>>(2);
    cache.set('a', known(1));
    cache.set('b', known(2));
    cache.set('a', known(3)); // a is now the most recent
    cache.set('c', known(4));
    expect(cache.take('b')).toBeNull();
    expect(cache.take('a')).toEqual(known(3));
    expect(cache.take('c')).toEqual(known(4));
  });

  it('hands a value out once: a batch that takes it must put back what it wrote', () => {
    const cache = new LastWritten<ReturnType<typeof known>>(2);
    cache.set('a', known(1));
    expect(cache.take('a')).toEqual(known(1));
    expect(cache.take('a')).toBeNull();
  });
});
