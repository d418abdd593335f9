import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * VADER's compound score, computed exactly as vader-sentiment 1.1.3 (the JS port we used before)
 * computes it, quirks included, but about six times faster: the port rebuilds a word × punctuation
 * dictionary and copies its negation list for every word it scores, which made it most of the
 * classifier's cost. vader-scorer.spec.ts checks that both give the same score on every public and
 * fixture text and on every lexicon entry. The lexicon is the package's own vader_lexicon.txt.
 */

const B_INCR = 0.293;
const B_DECR = -0.293;
const C_INCR = 0.733;
const N_SCALAR = -0.74;

/** Characters the port strips before matching punctuated tokens ("great!" → "great"). */
const PUNCTUATION = new Set(Array.from('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'));
const PUNCTUATION_GLOBAL = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;
const PUNCTUATION_AFFIXES = new Set(['.', '!', '?', ',', ';', ':', '-', "'", '"', '!!', '!!!', '??', '???', '?!?', '!?!', '?!?!', '!?!?']);

const NEGATIONS = new Set([
  'aint', 'arent', 'cannot', 'cant', 'couldnt', 'darent', 'didnt', 'doesnt', "ain't", "aren't", "can't", "couldn't", "daren't", "didn't",
  "doesn't", 'dont', 'hadnt', 'hasnt', 'havent', 'isnt', 'mightnt', 'mustnt', 'neither', "don't", "hadn't", "hasn't", "haven't", "isn't",
  "mightn't", "mustn't", 'neednt', "needn't", 'never', 'none', 'nope', 'nor', 'not', 'nothing', 'nowhere', 'oughtnt', 'shant', 'shouldnt',
  'uhuh', 'wasnt', 'werent', "oughtn't", "shan't", "shouldn't", 'uh-uh', "wasn't", "weren't", 'without', 'wont', 'wouldnt', "won't",
  "wouldn't", 'rarely', 'seldom', 'despite',
]);

const BOOSTERS = new Map<string, number>([
  ...['absolutely', 'amazingly', 'awfully', 'completely', 'considerably', 'decidedly', 'deeply', 'effing', 'enormously', 'entirely',
    'especially', 'exceptionally', 'extremely', 'fabulously', 'flipping', 'flippin', 'fricking', 'frickin', 'frigging', 'friggin',
    'fully', 'fucking', 'greatly', 'hella', 'highly', 'hugely', 'incredibly', 'intensely', 'majorly', 'more', 'most', 'particularly',
    'purely', 'quite', 'really', 'remarkably', 'so', 'substantially', 'thoroughly', 'totally', 'tremendously', 'uber', 'unbelievably',
    'unusually', 'utterly', 'very'].map((word): [string, number] => [word, B_INCR]),
  ...['almost', 'barely', 'hardly', 'just enough', 'kind of', 'kinda', 'kindof', 'kind-of', 'less', 'little', 'marginally',
    'occasionally', 'partly', 'scarcely', 'slightly', 'somewhat', 'sort of', 'sorta', 'sortof', 'sort-of'].map((word): [string, number] => [word, B_DECR]),
]);

const IDIOMS = new Map<string, number>([
  ['the shit', 3], ['the bomb', 3], ['bad ass', 1.5], ['yeah right', -2], ['cut the mustard', 2], ['kiss of death', -1.5], ['hand to mouth', -2],
]);

function loadLexicon(): Map<string, number> {
  const path = join(dirname(require.resolve('vader-sentiment/package.json')), 'vader_lexicon.txt');
  const lexicon = new Map<string, number>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const [token, meanRating] = line.split('\t');
    if (token && meanRating !== undefined) lexicon.set(token, Number(meanRating));
  }
  return lexicon;
}

const LEXICON = loadLexicon();

const isUpper = (word: string): boolean => /^[^a-z]*[A-Z]+[^a-z]*$/.test(word);

const isNegation = (word: string | undefined): boolean => word !== undefined && (NEGATIONS.has(word) || word.includes("n't"));

/** The port's tokens: whitespace-split, one-character tokens dropped, one punctuation affix stripped from known words. */
function tokenize(text: string): string[] {
  const words = new Set(text.replace(PUNCTUATION_GLOBAL, '').split(/\s/).filter((word) => word.length > 1));
  return text
    .split(/\s/)
    .filter((token) => token.length > 1)
    .map((token) => {
      let prefixEnd = 0;
      while (prefixEnd < token.length && PUNCTUATION.has(token[prefixEnd])) prefixEnd += 1;
      if (prefixEnd > 0 && PUNCTUATION_AFFIXES.has(token.slice(0, prefixEnd)) && words.has(token.slice(prefixEnd))) return token.slice(prefixEnd);
      let suffixStart = token.length;
      while (suffixStart > 0 && PUNCTUATION.has(token[suffixStart - 1])) suffixStart -= 1;
      if (suffixStart < token.length && PUNCTUATION_AFFIXES.has(token.slice(suffixStart)) && words.has(token.slice(0, suffixStart))) return token.slice(0, suffixStart);
      return token;
    });
}

function boosterScalar(word: string, valence: number, isCapDifferential: boolean): number {
  const booster = BOOSTERS.get(word.toLowerCase());
  if (booster === undefined) return 0;
  let scalar = valence < 0 ? -booster : booster;
  if (isCapDifferential && isUpper(word)) scalar += valence > 0 ? C_INCR : -C_INCR;
  return scalar;
}

function neverCheck(valence: number, words: readonly string[], distance: number, index: number): number {
  if (distance === 0) return isNegation(words[index - 1]) ? valence * N_SCALAR : valence;
  if (distance === 1) {
    if (words[index - 2] === 'never' && (words[index - 1] === 'so' || words[index - 1] === 'this')) return valence * 1.5;
    return isNegation(words[index - 2]) ? valence * N_SCALAR : valence;
  }
  const neverSoThis = words[index - 3] === 'never' && (words[index - 2] === 'so' || words[index - 2] === 'this');
  if (neverSoThis || words[index - 1] === 'so' || words[index - 1] === 'this') return valence * 1.25;
  return isNegation(words[index - 3]) ? valence * N_SCALAR : valence;
}

/** As the port does it, "undefined" words included when the idiom would start before the text. */
function idiomsCheck(valence: number, words: readonly string[], index: number): number {
  const at = (offset: number): string => String(words[index + offset]);
  const twoOne = `${at(-2)} ${at(-1)}`;
  const threeTwo = `${at(-3)} ${at(-2)}`;
  const candidates = [`${at(-1)} ${at(0)}`, `${at(-2)} ${at(-1)} ${at(0)}`, twoOne, `${at(-3)} ${at(-2)} ${at(-1)}`, threeTwo];
  let result = valence;
  const idiom = candidates.find((candidate) => IDIOMS.has(candidate));
  if (idiom !== undefined) result = IDIOMS.get(idiom) as number;
  if (words.length - 1 > index) result = IDIOMS.get(`${at(0)} ${at(1)}`) ?? result;
  if (words.length - 1 > index + 1) result = IDIOMS.get(`${at(0)} ${at(1)} ${at(2)}`) ?? result;
  if (BOOSTERS.has(threeTwo) || BOOSTERS.has(twoOne)) result += B_DECR;
  return result;
}

function leastCheck(valence: number, words: readonly string[], index: number): number {
  if (index > 0 && words[index - 1].toLowerCase() === 'least' && !LEXICON.has('least')) {
    if (index === 1) return valence * N_SCALAR;
    const before = words[index - 2].toLowerCase();
    return before !== 'at' && before !== 'very' ? valence * N_SCALAR : valence;
  }
  return valence;
}

function wordValence(words: readonly string[], index: number, isCapDifferential: boolean): number {
  const word = words[index];
  let valence = LEXICON.get(word.toLowerCase());
  if (valence === undefined) return 0;
  if (isUpper(word) && isCapDifferential) valence += valence > 0 ? C_INCR : -C_INCR;
  for (let distance = 0; distance < 3; distance += 1) {
    if (index <= distance || LEXICON.has(words[index - (distance + 1)].toLowerCase())) continue;
    let scalar = boosterScalar(words[index - (distance + 1)], valence, isCapDifferential);
    if (distance === 1) scalar *= 0.95;
    else if (distance === 2) scalar *= 0.9;
    valence = neverCheck(valence + scalar, words, distance, index);
    if (distance === 2) valence = idiomsCheck(valence, words, index);
  }
  return leastCheck(valence, words, index);
}

function punctuationEmphasis(text: string): number {
  const exclamations = Math.min(4, text.split('!').length - 1);
  const questions = text.split('?').length - 1;
  const questionEmphasis = questions > 1 ? (questions <= 3 ? 0.18 * questions : 0.96) : 0;
  return 0.292 * exclamations + questionEmphasis;
}

/** VADER's compound score in -1..1 (four decimals, as the port rounds it). */
export function vaderCompound(text: string): number {
  const words = tokenize(text);
  if (words.length === 0) return 0;
  const upperCount = words.filter(isUpper).length;
  const isCapDifferential = upperCount > 0 && upperCount < words.length;
  const valences = words.map((word, index) => {
    const lower = word.toLowerCase();
    const kindOf = index < words.length - 1 && lower === 'kind' && words[index + 1].toLowerCase() === 'of';
    return kindOf || BOOSTERS.has(lower) ? 0 : wordValence(words, index, isCapDifferential);
  });
  let butIndex = words.indexOf('but');
  if (butIndex === -1) butIndex = words.indexOf('BUT');
  const weighted = butIndex === -1 ? valences : valences.map((valence, index) => (index < butIndex ? valence * 0.5 : index > butIndex ? valence * 1.5 : valence));
  let sum = weighted.reduce((total, valence) => total + valence, 0);
  if (sum > 0) sum += punctuationEmphasis(text);
  else if (sum < 0) sum -= punctuationEmphasis(text);
  const normalized = Math.max(-1, Math.min(1, sum / Math.sqrt(sum * sum + 15)));
  return parseFloat(normalized.toFixed(4));
}
