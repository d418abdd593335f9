const ASCII_ONLY = /^[\x00-\x7F]*$/;

/** Most comments are plain ASCII: steps that only matter for other characters skip them. */
export function isAsciiOnly(text: string): boolean {
  return ASCII_ONLY.test(text);
}

const GERMAN_TRANSLITERATION: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue', ß: 'ss' };

/**
 * Shortens letter runs people type for emphasis so words match lexicons: a run of three or more
 * at the end of a word becomes one letter ("yesss" -> "yes", "sooo" -> "so"), inside a word two
 * ("goooood" -> "good"). Case is kept (VADER reads all-caps as emphasis).
 */
export function collapseRepeatedLetters(text: string): string {
  return text.replace(/(\p{L})\1{2,}(?!\p{L})/gu, '$1').replace(/(\p{L})\1{2,}/gu, '$1$1');
}

/** Stands for a link in normalized text: URLs carry words ("free-iphone-win.xyz") nobody reads as sentiment. */
export const LINK_MARK = 'linkmark';
/**
 * Spammers space out ".com" to dodge filters ("kidsmediausa  . com", "instafame .store"); only the
 * common endings may have a space after the dot, or every "November. Me like" would read as a link.
 */
const LINK =
  /(?:https?:\/\/|www\.)\S+|\b[\w-]+(?:\s{0,2}\.\s?(?:com|net|org)|\s{0,2}\.(?:com|net|org|xyz|shop|store|club|online|site|info|biz|io|co|me|ly|link|tv))\b(?:\/\S*)?|\/?watch\?v=\S+/gi;

export function maskLinks(text: string): string {
  return text.replace(LINK, ` ${LINK_MARK} `);
}

/**
 * Compatibility characters unified (fullwidth, styled letters), links masked, lowercase, curly apostrophes straightened, German umlauts transliterated (so
 * "schön" and "schon" stay different words), other accents stripped (people often omit them in
 * es/fr/pt), emphasis runs collapsed. Cue patterns are written against this form.
 */
export function foldForMatching(text: string): string {
  // Compatibility forms first: spammers write links and words in fullwidth or styled letters ("ｈｔｔｐ").
  const plain = isAsciiOnly(text) ? text : text.normalize('NFKC');
  const lower = collapseRepeatedLetters(maskLinks(plain).toLowerCase().replace(/[’‘`]/g, "'"));
  return lower
    .replace(/[äöüß]/g, (letter) => GERMAN_TRANSLITERATION[letter])
    .normalize('NFD')
    .replace(/\p{M}/gu, '');
}

/** A comment as written and in folded form, so each rule reads the form it was written for. */
export interface CommentText {
  raw: string;
  folded: string;
}

export function toCommentText(raw: string): CommentText {
  return { raw, folded: foldForMatching(raw) };
}
