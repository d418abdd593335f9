import { graphemeLength, mastodonLength, threadsLength, xWeightedLength } from './text-length';

describe('platform text lengths', () => {
  it('X weighs a URL as 23, Latin as 1 and CJK or emoji as 2', () => {
    expect(xWeightedLength('hello')).toBe(5);
    expect(xWeightedLength('see https://example.com/a/very/long/path/that/is/long')).toBe(4 + 23);
    expect(xWeightedLength('日本')).toBe(4);
    expect(xWeightedLength('😀')).toBe(2);
  });

  it('Bluesky counts a family emoji as one grapheme', () => {
    expect(graphemeLength('👨‍👩‍👧‍👦')).toBe(1);
    expect(graphemeLength('é')).toBe(1);
  });

  it('Threads counts an emoji as its UTF-8 bytes', () => {
    expect(threadsLength('ab😀')).toBe(2 + 4);
  });

  it('Mastodon counts a URL as 23', () => {
    expect(mastodonLength('x https://example.com/' + 'p'.repeat(100))).toBe(2 + 23);
  });
});
