import { familyOf, jsonArray, packJsonArrays } from './command-batch';

describe('command batches', () => {
  it('a family is the part of the name before the dot', () => {
    expect(familyOf('posts.create')).toBe('posts');
    expect(familyOf('queues.set-schedule')).toBe('queues');
  });

  it('packs JSON texts in order into arrays that each fit the limit in bytes', () => {
    const texts = ['"aaaa"', '"bbbb"', '"cccc"', '"dddd"'];
    // [ + 6 + , + 6 + ] = 15 bytes: two texts fit in 16, a third would not.
    const packs = packJsonArrays(texts, 16);
    expect(packs).toEqual([
      ['"aaaa"', '"bbbb"'],
      ['"cccc"', '"dddd"'],
    ]);
    for (const pack of packs) expect(Buffer.byteLength(jsonArray(pack))).toBeLessThanOrEqual(16);
    expect(packs.flat().map((text) => JSON.parse(text))).toEqual(['aaaa', 'bbbb', 'cccc', 'dddd']);
  });

  it('counts bytes, not characters, and leaves a text too large for any pack alone in its own', () => {
    expect(packJsonArrays(['"é"', '"é"'], 9)).toEqual([['"é"'], ['"é"']]);
    expect(packJsonArrays(['"x"', '"far too large"', '"y"'], 8)).toEqual([['"x"'], ['"far too large"'], ['"y"']]);
  });

  it('everything fits in one pack when it can', () => {
    expect(packJsonArrays(['1', '2', '3'], 1024)).toEqual([['1', '2', '3']]);
    expect(packJsonArrays([], 1024)).toEqual([]);
  });
});
