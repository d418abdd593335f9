/**
 * The ways platforms count text. Each connector picks the one its platform documents.
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

/** User-perceived characters (Bluesky's 300-grapheme limit). */
export function graphemeLength(text: string): number {
  let count = 0;
  for (const _ of graphemes.segment(text)) count++;
  return count;
}

/** Mastodon: code points, every URL counted as 23 whatever its length. */
export function mastodonLength(text: string): number {
  return codePointLength(text.replace(URL_PATTERN, 'x'.repeat(23)));
}

/**
 * X's weighted length (twitter-text v3): URLs count 23; code points in the Latin and
 * general-punctuation ranges weigh 1, everything else (CJK, emoji...) weighs 2.
 */
export function xWeightedLength(text: string): number {
  let length = 0;
  for (const char of text.replace(URL_PATTERN, '')) length += xWeight(char.codePointAt(0) ?? 0);
  return length + (text.match(URL_PATTERN)?.length ?? 0) * 23;
}

function xWeight(codePoint: number): number {
  const light =
    codePoint <= 4351 ||
    (codePoint >= 8192 && codePoint <= 8205) ||
    (codePoint >= 8208 && codePoint <= 8223) ||
    (codePoint >= 8242 && codePoint <= 8247);
  return light ? 1 : 2;
}

const EMOJI = /\p{Extended_Pictographic}/u;

/** Threads: characters, except that an emoji counts as its UTF-8 byte length. */
export function threadsLength(text: string): number {
  let length = 0;
  for (const char of text) length += EMOJI.test(char) ? utf8ByteLength(char) : 1;
  return length;
}
