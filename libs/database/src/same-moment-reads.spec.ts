import { SameMomentReads } from './same-moment-reads';

describe('SameMomentReads', () => {
  it('reads the keys asked for in one moment in one load, each key once, and answers each caller its own', async () => {
    const loads: string[][] = [];
    const reads = new SameMomentReads<string, string>(async (keys) => {
      loads.push(keys);
      return new Map(keys.filter((key) => key !== 'missing').map((key) => [key, key.toUpperCase()]));
    });
    const answers = await Promise.all(['a', 'b', 'a', 'missing'].map((key) => reads.get(key)));
    expect(answers).toEqual(['A', 'B', 'A', undefined]);
    expect(loads).toEqual([['a', 'b', 'missing']]);
  });

  it('never answers a read from a load that started before it was asked (read-your-writes)', async () => {
    let value = 'before';
    const loads: number[] = [];
    let release!: () => void;
    const reads = new SameMomentReads<string, string>(async (keys) => {
      loads.push(keys.length);
      const seen = value;
      if (loads.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return new Map(keys.map((key) => [key, seen]));
    });
    const first = reads.get('k');
    await new Promise((resolve) => setImmediate(resolve)); // the first load is under way
    value = 'after'; // a write the next caller has seen committed
    const second = reads.get('k');
    release();
    expect(await first).toBe('before');
    expect(await second).toBe('after');
    expect(loads).toEqual([1, 1]);
  });

  it('fails every caller of a load that fails, and loads again for the next', async () => {
    let fail = true;
    const reads = new SameMomentReads<string, string>(async (keys) => {
      if (fail) throw new Error('database gone');
      return new Map(keys.map((key) => [key, 'ok']));
    });
    await expect(Promise.all([reads.get('a'), reads.get('b')])).rejects.toThrow('database gone');
    fail = false;
    await expect(reads.get('a')).resolves.toBe('ok');
  });
});
