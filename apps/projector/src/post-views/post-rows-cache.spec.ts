import { PostRowsCache } from './post-rows-cache';

interface Row {
  id: string;
  version: number;
  results: Array<{ accountId: string }>;
}

const row = (id: string, version: number): Row => ({ id, version, results: [{ accountId: `${id}-a` }] });

describe('PostRowsCache', () => {
  it('gives copies of the rows it holds and names the ones it does not', () => {
    const cache = new PostRowsCache<Row>();
    cache.remember([row('a', 3), row('b', 1)]);
    const { held, missing } = cache.take(['a', 'c', 'b']);
    expect(held).toEqual([row('a', 3), row('b', 1)]);
    expect(missing).toEqual(['c']);
    // A fold changes its rows in place: what it was given must not change what is held.
    held[0].version = 4;
    held[0].results.push({ accountId: 'x' });
    expect(cache.take(['a']).held).toEqual([row('a', 3)]);
  });

  it('keeps a copy of what it remembers, the newest for each id', () => {
    const cache = new PostRowsCache<Row>();
    const written = row('a', 1);
    cache.remember([written]);
    written.version = 9;
    cache.remember([row('b', 1)]);
    expect(cache.take(['a']).held).toEqual([row('a', 1)]);
    cache.remember([row('a', 2)]);
    expect(cache.take(['a']).held).toEqual([row('a', 2)]);
  });

  it('lets the longest unwritten rows go beyond its capacity', () => {
    const cache = new PostRowsCache<Row>(2);
    cache.remember([row('a', 1), row('b', 1)]);
    cache.remember([row('a', 2)]); // a written again: b is now the oldest
    cache.remember([row('c', 1)]);
    expect(cache.size).toBe(2);
    expect(cache.take(['a', 'b', 'c']).missing).toEqual(['b']);
  });

  it('forgets the rows named, or all of them', () => {
    const cache = new PostRowsCache<Row>();
    cache.remember([row('a', 1), row('b', 1), row('c', 1)]);
    cache.forget(['a']);
    expect(cache.take(['a', 'b']).missing).toEqual(['a']);
    cache.forgetAll();
    expect(cache.take(['b', 'c']).missing).toEqual(['b', 'c']);
  });
});
