import { emojiToWords } from './emoji-words';
import { ENGLISH_BY_FOREIGN_WORD } from './foreign-words';
import { ENGLISH_PHRASES, ENGLISH_SLANG } from './lexicon-gaps';
import { collapseRepeatedLetters, foldForMatching, maskLinks } from './text-normalization';

const WORD = /[\p{L}\p{M}']+/gu;
/** French/Italian elisions glue a pronoun or article to the word: "j'adore", "c'est", "l'app". */
const ELIDED_PREFIX = /^(?:j|l|c|d|n|m|s|t|qu)'/;
const NEGATORS = new Set(['not', 'never', 'no', 'nobody']);
/** "Funktioniert nicht, total enttäuscht": a negator closing its clause negates what came before. */
const CLAUSE_END_AHEAD = /^\s*(?:[,.;!?]|$)/;

/** Plain ASCII words fold by lowercasing; only the rest pays for full folding (accents, umlauts). */
const ASCII_WORD = /^[A-Za-z']+$/;

/** Maps, not object lookups: faster, and "constructor" is not a word with a translation. */
const ENGLISH_BY_WORD = new Map<string, string>([...Object.entries(ENGLISH_BY_FOREIGN_WORD), ...Object.entries(ENGLISH_SLANG)]);

function englishFor(word: string): string | undefined {
  const folded = ASCII_WORD.test(word) ? word.toLowerCase() : foldForMatching(word);
  const english = ENGLISH_BY_WORD.get(folded);
  return english === undefined && folded.includes("'") ? ENGLISH_BY_WORD.get(folded.replace(ELIDED_PREFIX, '')) : english;
}

/** Replaces known foreign and slang words by English; everything else (case included) is kept. */
function translateWords(text: string): string {
  return text.replace(WORD, (word: string, offset: number) => {
    const english = englishFor(word);
    if (english === undefined) return word;
    if (NEGATORS.has(english) && CLAUSE_END_AHEAD.test(text.slice(offset + word.length))) return word;
    // Keep shouting visible to VADER's all-caps rule.
    return word.length > 1 && word === word.toUpperCase() ? english.toUpperCase() : english;
  });
}

/**
 * The JS port compares the three words before a sentiment word with its lowercase negation list
 * as written, so "Not a great way to start the day" escaped negation and read positive.
 */
const ENGLISH_NEGATOR = /\b(?:not|no|never|none|nothing|nowhere|neither|nor|without|cannot|(?:can|don|doesn|didn|isn|aren|wasn|weren|won|wouldn|couldn|shouldn|haven|hasn|hadn|ain)'?t)\b/gi;

function lowercaseNegators(text: string): string {
  return text.replace(ENGLISH_NEGATOR, (negator) => negator.toLowerCase());
}

/** The text VADER scores: links masked, emphasis runs collapsed, emoji, slang and foreign words in English. */
export function prepareForVader(text: string): string {
  let prepared = emojiToWords(collapseRepeatedLetters(maskLinks(text)));
  for (const [phrase, replacement] of ENGLISH_PHRASES) prepared = prepared.replace(phrase, replacement);
  return lowercaseNegators(translateWords(prepared));
}
