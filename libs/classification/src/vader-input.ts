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

function englishFor(word: string): string | undefined {
  const folded = foldForMatching(word);
  return ENGLISH_SLANG[folded] ?? ENGLISH_BY_FOREIGN_WORD[folded] ?? ENGLISH_BY_FOREIGN_WORD[folded.replace(ELIDED_PREFIX, '')];
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

/** The text VADER scores: links masked, emphasis runs collapsed, emoji, slang and foreign words in English. */
export function prepareForVader(text: string): string {
  let prepared = emojiToWords(collapseRepeatedLetters(maskLinks(text)));
  for (const [phrase, replacement] of ENGLISH_PHRASES) prepared = prepared.replace(phrase, replacement);
  return translateWords(prepared);
}
