/**
 * English words and phrases the VADER lexicon scores wrongly for comment sections, or not at all.
 * Replaced before scoring by a word VADER scores the way a reader hears them. Keys of
 * ENGLISH_SLANG are folded words (see foldForMatching).
 */
export const ENGLISH_SLANG: Readonly<Record<string, string>> = {
  incredible: 'amazing', smooth: 'nice', obsessed: 'love', slaps: 'awesome', goated: 'awesome',
  banger: 'awesome', lit: 'awesome', w: 'win', underrated: 'great', outdid: 'excellent',
  mid: 'mediocre', overpriced: 'bad', underwhelming: 'disappointing', unusable: 'useless', buggy: 'bad',
  // "Interesting" under a post is noncommittal, VADER scores it as clearly positive.
  interesting: 'noted',
  // So is "ok": an acknowledgement ("ok", "ok thanks"), or "it's ok", faint praise at best.
  ok: 'noted', okay: 'noted',
  // In comment sections "likes" counts reactions.
  likes: 'reactions',
};

export const ENGLISH_PHRASES: ReadonlyArray<[RegExp, string]> = [
  // "Fire" is praise as a predicate ("this is fire"), a wish of harm in "die in a fire".
  [/\b(?:die|dies|died|burn|burns)\s+in\s+(?:a\s+)?(?:fire|hell)\b/gi, 'hate'],
  [/\bdumpster fire\b/gi, 'disaster'],
  [/\b(is|so|pure|straight|literally|was|looks?|sounds?|track|song|beat|album) fire\b/gi, '$1 awesome'],
  [/\b(you'?re|you are|u r|he'?s|she'?s|they'?re) on fire\b/gi, '$1 awesome'],
  // The JS port negates "wait" into nothing; people mean eagerness.
  [/\b(?:can'?t|cannot|can not) wait\b/gi, 'excited'],
  // The JS port reads these as negated positives turned negative.
  [/\bcan'?t complain\b|\bno complaints\b|\bno regrets\b|\bno issues\b/gi, 'satisfied'],
  [/\bnot sure\b/gi, 'maybe'],
  [/\bworks (?:really |so |very )?(?:well|great|perfectly)\b/gi, 'works great'],
  // "like" as a verb of wanting or comparing is no sentiment.
  [/\b(?:would|'d) like to\b/gi, 'want to'],
  [/\b(?:looks?|tastes?|feels?|sounds?|seems?) like\b/gi, 'resembles'],
  [/\blike and follow\b/gi, 'follow'],
];
