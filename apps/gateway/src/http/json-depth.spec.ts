import { JsonDepthMeter } from './json-depth';

const depthOf = (text: string, chunkSize = text.length || 1): { deepest: number; within: boolean } => {
  const meter = new JsonDepthMeter();
  const bytes = Buffer.from(text);
  let within = true;
  for (let i = 0; i < bytes.length && within; i += chunkSize) within = meter.feed(bytes.subarray(i, i + chunkSize), 64);
  return { deepest: meter.deepest, within };
};

describe('JSON depth measured over bytes, before parsing', () => {
  it.each([
    ['a scalar', '"text"', 0],
    ['a flat object', '{"a":1,"b":"x"}', 1],
    ['a post body', '{"content":"hi","accounts":["@a"],"firstComments":["x"]}', 2],
    ['nested arrays', '[[[1]],[2]]', 3],
  ])('measures %s', (_name, text, deepest) => {
    expect(depthOf(text)).toEqual({ deepest, within: true });
    expect(JSON.parse(text)).toBeDefined();
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(depthOf('{"a":"[[[{{{\\"[[[","b":"\\\\"}').deepest).toBe(1);
  });

  it('ignores the bytes of multi-byte characters', () => {
    expect(depthOf('{"a":"é😀[","b":["ü"]}').deepest).toBe(2);
  });

  it('stops at the first level past the bound, whatever the chunking (a string split across chunks included)', () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    for (const chunkSize of [1, 7, 4096, deep.length]) expect(depthOf(deep, chunkSize)).toEqual({ deepest: 65, within: false });
    const quoted = `{"a":"${'['.repeat(100)}","b":[[1]]}`;
    for (const chunkSize of [1, 3, quoted.length]) expect(depthOf(quoted, chunkSize)).toEqual({ deepest: 3, within: true });
  });

  it('allows exactly the bound', () => {
    expect(depthOf(`${'{"a":'.repeat(64)}1${'}'.repeat(64)}`)).toEqual({ deepest: 64, within: true });
    expect(depthOf(`${'{"a":'.repeat(65)}1${'}'.repeat(65)}`).within).toBe(false);
  });
});
