import { findUnstorableString, unstorableReason } from './storable-text';

describe('text storage can hold', () => {
  it.each([
    ['plain text', 'hello'],
    ['an emoji (a surrogate pair)', 'ok \uD83D\uDE00 ok'],
    ['a pair at the very end', 'x\uD83D\uDE00'],
    ['the empty string', ''],
    ['the replacement character', '\uFFFD'],
  ])('accepts %s', (_name, text) => {
    expect(unstorableReason(text)).toBeNull();
  });

  it.each([
    ['NUL', 'a\u0000b', 'NUL'],
    ['a lone high surrogate', '\uD800', 'lone surrogate'],
    ['a high surrogate at the end', 'abc\uD83D', 'lone surrogate'],
    ['a lone low surrogate', 'a\uDC00b', 'lone surrogate'],
    ['two high surrogates', '\uD83D\uD83D', 'lone surrogate'],
  ])('refuses %s', (_name, text, reason) => {
    expect(unstorableReason(text)).toContain(reason);
  });

  it('names the path of the first bad string at any depth, in arrays and objects', () => {
    expect(findUnstorableString({ content: 'ok', accounts: ['a', 'b\u0000'] })).toEqual({ path: 'accounts[1]', reason: expect.stringContaining('NUL') });
    expect(findUnstorableString({ a: { b: [{ c: '\uDFFF' }] } })).toEqual({ path: 'a.b[0].c', reason: expect.stringContaining('surrogate') });
    expect(findUnstorableString('\u0000')).toEqual({ path: '(the body)', reason: expect.any(String) });
  });

  it('checks keys too, and names them printably', () => {
    const found = findUnstorableString({ ok: 1, nested: { 'x\u0000y': 1 } });
    expect(found).toEqual({ path: '(key) nested.x\\u0000y', reason: expect.stringContaining('NUL') });
    expect(unstorableReason(found!.path)).toBeNull();
  });

  it('finds nothing in storable values of every JSON type', () => {
    expect(findUnstorableString({ a: [1, true, null, { b: 'é\uD83D\uDE00' }], c: 2.5 })).toBeNull();
    expect(findUnstorableString(null)).toBeNull();
  });

  it('walks a value nested far deeper than the call stack without overflowing', () => {
    let deep: unknown = 'bottom\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const found = findUnstorableString(deep);
    expect(found?.reason).toContain('NUL');
    expect(found?.path.startsWith('[0][0]')).toBe(true);
  });
});
