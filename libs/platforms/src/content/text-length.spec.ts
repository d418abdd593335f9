import { graphemeLength, hashtagCount, mastodonLength, mentionCount, threadsLength, utf8ByteLength, xWeightedLength } from './text-length';

const family = '👨‍👩‍👧‍👦'; // 4 emoji and 3 zero-width joiners: 7 code points, 25 bytes of UTF-8

describe('X weighted length ("Counting characters", https://docs.x.com/fundamentals/counting-characters; twitter-text config v3)', () => {
  it('weighs Latin and the v3 light ranges 1, everything else 2', () => {
    expect(xWeightedLength('hello')).toBe(5);
    expect(xWeightedLength('日本')).toBe(4);
    // The range ends: U+10FF is light, U+1100 is not; the em dash (U+2014) is light, the ellipsis (U+2026) is not.
    expect(xWeightedLength('\u10ff\u1100')).toBe(1 + 2);
    expect(xWeightedLength('—…')).toBe(1 + 2);
  });

  it('counts every emoji as 2, whatever its code points (the page\'s table)', () => {
    expect(xWeightedLength('👾')).toBe(2);
    expect(xWeightedLength('🙋🏽')).toBe(2);
    expect(xWeightedLength('👨‍🎤')).toBe(2);
    expect(xWeightedLength(family)).toBe(2);
    expect(xWeightedLength('🇫🇷1️⃣')).toBe(4);
    // A copyright sign without the emoji selector is a Latin-1 character.
    expect(xWeightedLength('©')).toBe(1);
  });

  it('counts a URL as 23 whatever its length', () => {
    expect(xWeightedLength('https://example.com')).toBe(23);
    expect(xWeightedLength('https://example.com/very/long/path')).toBe(23);
    expect(xWeightedLength('see https://example.com/a/very/long/path/that/is/long')).toBe(4 + 23);
  });

  it('counts a bare domain as a 23-character link, as twitter-text autolinks it, and not the period ending the sentence', () => {
    expect(xWeightedLength('example.com')).toBe(23);
    expect(xWeightedLength('visit example.com.')).toBe(6 + 23 + 1);
    expect(xWeightedLength('docs at example.co.uk/guide?page=2, ok')).toBe(8 + 23 + 4);
  });

  it('leaves what twitter-text does not link: unknown top-level domains, e-mail addresses, hashtags', () => {
    expect(xWeightedLength('node.js file.txt')).toBe(16);
    expect(xWeightedLength('me@example.com')).toBe(14);
    expect(xWeightedLength('#example.com')).toBe(12);
  });

  it('counts NFC-normalized text: café is 4 however it is encoded', () => {
    expect(xWeightedLength('caf\u00e9')).toBe(4);
    expect(xWeightedLength('cafe\u0301')).toBe(4);
  });
});

describe('Threads length ("Threads Posts", Limitations: https://developers.facebook.com/documentation/threads/posts)', () => {
  it('counts an emoji as its UTF-8 bytes, the whole sequence, and other characters as 1', () => {
    expect(threadsLength('ab😀')).toBe(2 + 4);
    expect(threadsLength(family)).toBe(25);
    expect(threadsLength('🙋🏽')).toBe(8);
    expect(threadsLength('🇫🇷')).toBe(8);
    expect(threadsLength('❤️')).toBe(6);
    expect(threadsLength('日本é')).toBe(3);
  });
});

describe('Bluesky (app.bsky.feed.post lexicon: maxGraphemes 300, maxLength 3000 bytes of UTF-8)', () => {
  it('counts a family emoji as one grapheme and 25 bytes', () => {
    expect(graphemeLength(family)).toBe(1);
    expect(utf8ByteLength(family)).toBe(25);
    expect(graphemeLength('é')).toBe(1);
  });
});

describe('Instagram caption tags (IG User Media, caption: "30 hashtags, and 20 @ tags")', () => {
  it('counts each hashtag, not a # inside a word', () => {
    expect(hashtagCount('#sun #sea #sun c#sharp #été_2025')).toBe(4);
  });

  it('counts each @ tag, not an e-mail address', () => {
    expect(mentionCount('with @natgeo and @nat.geo_2, write to me@example.com')).toBe(2);
  });
});

describe('Mastodon', () => {
  it('counts a URL as 23', () => {
    expect(mastodonLength('x https://example.com/' + 'p'.repeat(100))).toBe(2 + 23);
  });
});
