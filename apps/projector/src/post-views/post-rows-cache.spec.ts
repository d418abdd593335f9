import { PostRowsCache } from './post-rows-cache';

interface Row {
  id: string;
  version: number;
  results: Array<{ accountId: string }>;
}

const row = (id: string, version: number): Row => ({ id, version, results: [{ accountId: `${id}-a` }] });

describe('PostRowsCache', () => {
  it('hands over the rows it holds, names the ones it does not, and holds a row again only once remembered', () => {
    const cache = new PostRowsCache<Row>();
    cache.remember([row('a', 3), row('b', 1)]);
    const { held, missing } = cache.take(['a', 'c', 'b']);
    expect(held).toEqual([row('a', 3), row('b', 1)]);
    expect(missing).toEqual(['c']);
    // Taken: a fold that fails half-way (or leaves a row unwritten) leaves nothing behind that the table does not have.
    expect(cache.take(['a', 'b']).missing).toEqual(['a', 'b']);
    held[0].version = 4;
    cache.remember([held[0]]);
    expect(cache.take(['a']).held).toEqual([{ ...row('a', 3), version: 4 }]);
  });

  it('holds the newest row remembered for an id', () => {
    const cache = new PostRowsCache<Row>();
    cache.remember([row('a', 1)]);
    cache.remember([row('b', 1), row('a', 2)]);
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
