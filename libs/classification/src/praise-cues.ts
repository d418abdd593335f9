import { words } from './cue-matching';

/**
 * Praise that is phrased with a negation, so it is matched on the whole text
 * (PRAISE_CUES are matched after negated words are removed: "not great" is no praise).
 */
export const NEGATED_PRAISE_CUES: readonly RegExp[] = [
  words("can'?t complain", 'no complaints', 'no issues', 'never had a (?:single )?(?:problem|issue)', 'never miss(?:es)?', 'no regrets', 'not bad', 'pas mal', "(?:don'?t|do not) usually comment"),
];

/** "This is fire" praises; "die in a fire" and "the house is on fire" do not. */
const FIRE_AS_PRAISE = "(?<!(?:in a|on|dumpster|house|caught|set) )(?:is |so |pure |straight |literally |was |looks? |sounds? )?fire(?! (?:alarm|hazard|department|exit|in))";

/** Approval, thanks and congratulations (folded text), including social slang and emoji. */
export const PRAISE_CUES: readonly RegExp[] = [
  words('love[ds]?', 'loving', 'amazing', 'awesome', 'great', 'best', 'excellent', 'perfect(?:ly)?', 'beautiful', 'gorgeous', 'stunning', 'incredible', 'fantastic', 'brilliant', 'wonderful', 'lovely', 'superb', 'outstanding', 'impressive', 'cute', 'clean', 'smooth', 'nice', 'cool'),
  words('thanks?', 'thank you', 'thx', 'ty', 'grateful', 'appreciate(?:d)?', 'congrats', 'congratulations', 'kudos', 'respect', 'well done', 'good job', 'great job', 'proud'),
  words("(?:you'?re|you are|u r|he'?s|she'?s|they'?re) on fire", 'recommend', 'favou?rite', 'obsessed', 'top notch', 'slaps', 'goated', FIRE_AS_PRAISE, 'w', '10/10', 'underrated', 'gold', 'keeper', 'outdid', 'masterpiece', 'so good', 'pretty good', 'helpful', 'saved (?:me|my|us)', 'keeps getting better', 'exactly what i', 'wow', 'finally', "works (?:really |so )?(?:well|great|perfectly)", "can'?t stop (?:listening|watching|wearing|using)"),
  // Spanish, French, German, Portuguese, Italian
  words('me encanta', 'encanta', 'excelente', 'bonit[oa]', 'gracias', 'recomiendo', 'recomendo', 'genial', 'lo maximo', 'son lo maximo', 'buen', 'muy buen[oa]?', "j'adore", 'adore', 'super', 'bravo', 'merci', 'trop beau', 'magnifique', 'schoen', 'gefaellt', 'danke', 'toll\\w*', 'klasse', 'hilfreich', 'amei', 'adorei', 'lind[oa]', 'obrigad[oa]', 'parabens', 'demais', 'muito bom', 'bellissim[oa]', 'complimenti', 'grazie'),
  /[😍🥰❤♥💕💖💗💙💚💜🧡🔥👏🙌💯🐐🤩]/u,
];

/** VADER's negation scope: a negator reaches the next three words of its clause ("not a great way"). */
const NEGATED_WORD = /(?<![\p{L}])(?:not|never|no|used to|isn'?t|wasn'?t|aren'?t|don'?t|doesn'?t|didn'?t|nao|pas|nicht|kein|non)(?:\s+[\p{L}']+){1,3}/gu;

/** Removes negated words (and "used to <word>") so a negated praise word is not read as praise. */
export function withoutNegatedWords(folded: string): string {
  return folded.replace(NEGATED_WORD, ' ');
}
