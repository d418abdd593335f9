import tlds from 'tlds';

/**
 * The ways platforms count text. Each connector picks the one its platform documents; the
 * platform sandbox counts with the same functions (one home), and text-length.spec.ts checks
 * them against the examples of each platform's documentation.
 */

const URL_PATTERN = /https?:\/\/[^\s]+/g;

/** Unicode code points (what most APIs mean by "characters"). */
export function codePointLength(text: string): number {
  return [...text].length;
}

/** UTF-16 code units (TikTok's "UTF-16 runes", JavaScript's .length). */
export function utf16Length(text: string): number {
  return text.length;
}

export function utf8ByteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The sum of `weigh` over the text's user-perceived characters (extended grapheme clusters). */
function sumOverGraphemes(text: string, weigh: (grapheme: string) => number): number {
  let sum = 0;
  for (const { segment } of graphemes.segment(text)) sum += weigh(segment);
  return sum;
}

/** User-perceived characters (Bluesky's 300-grapheme limit). */
export function graphemeLength(text: string): number {
  return sumOverGraphemes(text, () => 1);
}

/**
 * One emoji, however many code points it takes (skin tones, ZWJ sequences, flags, keycaps):
 * Unicode's recommended emoji set (UTS #51 RGI_Emoji). The `v` flag is built at run time
 * because the TypeScript target (ES2022) predates it; Node 20 has it.
 */
const RGI_EMOJI = new RegExp('^\\p{RGI_Emoji}$', 'v');

function isEmoji(grapheme: string): boolean {
  return RGI_EMOJI.test(grapheme);
}

/** Mastodon: code points, every URL counted as 23 whatever its length. */
export function mastodonLength(text: string): number {
  return codePointLength(text.replace(URL_PATTERN, 'x'.repeat(23)));
}

/**
 * X's weighted length, as X's "Counting characters" page documents it
 * (https://docs.x.com/fundamentals/counting-characters) with twitter-text's config v3
 * (github.com/twitter/twitter-text config/v3.json: scale 100, defaultWeight 200,
 * emojiParsingEnabled, transformedURLLength 23): the text is NFC-normalized; every link
 * weighs 23; an emoji weighs 2 whatever its code points (ZWJ sequences, skin tones); any
 * other code point weighs 1 in the four v3 ranges below and 2 elsewhere (CJK...).
 * The twitter-text npm package does this too, but it is not kept up (its last release,
 * 3.1.0, has no licence field and pulls core-js 2, which is end-of-life, and an old major of
 * twemoji-parser that misses newer emoji), so its documented algorithm is written here.
 */
export function xWeightedLength(text: string): number {
  const normalized = text.normalize('NFC');
  let length = 0;
  let from = 0;
  for (const link of xLinks(normalized)) {
    const start = link.index ?? 0;
    length += xTextWeight(normalized.slice(from, start)) + X_LINK_WEIGHT;
    from = start + link[0].length;
  }
  return length + xTextWeight(normalized.slice(from));
}

/** transformedURLLength: what every link weighs. */
const X_LINK_WEIGHT = 23;

/** twitter-text v3's ranges of weight 1 (100 at scale 100); every other code point weighs 2. */
const X_LIGHT_RANGES: Array<[number, number]> = [
  [0x0000, 0x10ff], // Latin-1 through Georgian
  [0x2000, 0x200d], // general punctuation spaces, up to the zero-width joiner
  [0x2010, 0x201f], // dashes and quotation marks
  [0x2032, 0x2037], // primes
];

function xTextWeight(text: string): number {
  return sumOverGraphemes(text, (grapheme) => (isEmoji(grapheme) ? 2 : sumOfCodePoints(grapheme, xCodePointWeight)));
}

function xCodePointWeight(codePoint: number): number {
  return X_LIGHT_RANGES.some(([start, end]) => codePoint >= start && codePoint <= end) ? 1 : 2;
}

function sumOfCodePoints(text: string, weigh: (codePoint: number) => number): number {
  let sum = 0;
  for (const char of text) sum += weigh(char.codePointAt(0) ?? 0);
  return sum;
}

/** Every delegated top-level domain (IANA's list, kept current by the `tlds` package). */
const TOP_LEVEL_DOMAINS = new Set(tlds);

/**
 * A link as twitter-text's extractUrlsWithIndices finds one: an optional http(s) scheme,
 * dot-separated labels ending in a delegated top-level domain (checked in xLinks), an
 * optional port, path and query. Not glued to a preceding letter, digit, @, $ or # (an
 * e-mail address, a hashtag), nor, without a scheme, to a preceding - _ . or /; the
 * punctuation that ends a sentence after a path is not part of the link.
 */
const X_LINK = /(?<![A-Za-z0-9@＠$#＃])(?:(https?:\/\/)|(?<![-_./]))((?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+([\p{L}\p{N}-]+))(?![\p{L}\p{N}@+-])(?::\d{1,5})?(?:[/?]\S*?(?=[.,:;!?'")\]]*(?:\s|$)))?/gu;

/** Without a scheme twitter-text links ASCII domains only (example.com, not exämple.com). */
const ASCII = /^[\x21-\x7e]+$/;

function xLinks(text: string): RegExpMatchArray[] {
  return [...text.matchAll(X_LINK)].filter(
    ([, scheme, domain, topLevel]) => TOP_LEVEL_DOMAINS.has(topLevel.toLowerCase()) && (scheme !== undefined || ASCII.test(domain)),
  );
}

/**
 * Threads: "Text posts are limited to 500 characters. Emojis are counted as the number of
 * UTF-8 bytes." (Threads API, "Threads Posts", Limitations: https://developers.facebook.com/documentation/threads/posts).
 * An emoji is the whole sequence (👨‍👩‍👧‍👦 is 25 bytes: its joiners and modifiers are part of
 * it); every other character is a code point.
 */
export function threadsLength(text: string): number {
  return sumOverGraphemes(text, (grapheme) => (isEmoji(grapheme) ? utf8ByteLength(grapheme) : codePointLength(grapheme)));
}

/**
 * Instagram's hashtags and @ tags in a caption, each occurrence counted (IG User Media,
 * `caption`: "Maximum 2200 characters, 30 hashtags, and 20 @ tags"). A hashtag is # and
 * letters, digits or underscores; an @ tag is @ and a username (letters, digits, periods,
 * underscores). Neither may be glued to a preceding word character (an e-mail address is
 * no @ tag).
 */
export function hashtagCount(text: string): number {
  return text.match(/(?<![\p{L}\p{N}_])#[\p{L}\p{M}\p{N}_]+/gu)?.length ?? 0;
}

export function mentionCount(text: string): number {
  return text.match(/(?<![\p{L}\p{N}_.])@[A-Za-z0-9._]+/gu)?.length ?? 0;
}
