import { hasCue, words } from './cue-matching';
import { LINK_MARK } from './text-normalization';

/** Openings that make a sentence a question even without "?" (people often skip it). */
const INTERROGATIVE_OPENINGS: readonly RegExp[] = [
  // English
  // "How do I…", "when is it…", but not headlines: "How Nike is using AI", "When the CEO gives a speech".
  /^(?:how|what|when|where|why|who|which|whose)\s+(?:do|does|did|can|could|will|would|should|is|are|was|were|has|have|am|much|many|long|often|about|if|to|i|you|we|it|this|that|kind|time|size|colou?r|one|ones|version|model|plan)\b/,
  /^(?:what's|whats|where's|how's|who's|when's)\b/,
  /^(?:is|are|was|does|do|did|can|could|will|would|should|has|have)\s+(?:there|it|this|that|the|you|i|we|they|he|she|my|your|anyone|anybody|someone)\b/,
  /^(?:anyone|anybody|does anyone|does anybody|has anyone)\s+(?:know|knows|tried|have|got|else)\b/,
  /^any\s+(?:idea|ideas|news|update|plans)\b/,
  // Spanish, Portuguese, Italian
  /^(?:como|cuando|donde|por que|porque|cual|cuanto|cuanta|quien|quando|onde|quanto|quanta|cade|perche|dove|chi)\b/,
  // French
  /^(?:comment|pourquoi|quand|ou|combien|quel|quelle|est-ce que|est ce que)\b/,
  // German
  /^(?:wie|warum|wieso|weshalb|wann|wo|was|welche|welcher|welches|gibt es|kann ich|kann man|habt ihr|hast du)\b/,
];

const QUESTION_MARK = /[?¿]/;
const EXCLAMATION_ENDING = /!\s*$/;
/** Strips leading mentions and greetings so "@support how do I..." and "Hi, is..." are seen. */
const LEADING_NOISE = /^(?:\s*@[\w.]+[\s,:]*|\s*(?:hi|hey|hello|hola|bonjour|hallo|ola|ciao|quick question)\b[\s,:!-]*)+/;

const HELP_REQUESTS: readonly RegExp[] = [words('anyone know', 'any idea', 'can someone (?:explain|tell|help)')];

/** Questions nobody expects the account to answer ("who cares?", "how cool is that?", "isn't it?"). */
const RHETORICAL_QUESTIONS: readonly RegExp[] = [
  words('who (?:cares|asked|even asked|does that|approved this|thought (?:this|that) was)', 'who else', "who (?:doesn'?t|does not) (?:love|like|want)", 'are you (?:kidding|serious|joking)', '(?:seriously|really|right|amirite|why not)\\?', "(?:isn'?t|wasn'?t|aren'?t|doesn'?t|don'?t|didn'?t) (?:it|he|she|they|that|this|we)\\?", 'how (?:cool|awesome|cute|amazing|great|crazy|sad|funny|hard) (?:is|was|can) (?:that|this|it)', "what'?s not to (?:love|like)", 'what (?:were|was) (?:they|you|he|she) thinking'),
];

/** Somebody speaking: "I", "my", "we", "you"… Headlines and news teasers ask in the third person. */
const PERSONAL_PRONOUN = words('i', "i'?m", "i'?ve", 'me', 'my', 'we', 'us', 'our', 'you', 'your', "you'?re", 'u', 'ur');

/** A news teaser: a link, nobody speaking, no question opening ("Gunners want Real Madrid midfielder? <link>"). */
function isHeadline(folded: string, sentence: string): boolean {
  return folded.includes(LINK_MARK) && !hasCue([PERSONAL_PRONOUN], folded) && !opensLikeAQuestion(sentence);
}

function opensLikeAQuestion(sentence: string): boolean {
  return hasCue(INTERROGATIVE_OPENINGS, sentence);
}

/**
 * Asks the account something: a question mark anywhere ("Part 2 when?", "Link?") unless the
 * question is rhetorical or a headline, a help request, or a one-sentence comment that opens like
 * a question ("is there a dark mode"). Longer comments without "?" are not read by their
 * openings: "When my payments stopped..." starts a story.
 */
export function isQuestion(folded: string): boolean {
  if (hasCue(HELP_REQUESTS, folded)) return true;
  const sentence = folded.replace(LEADING_NOISE, '').trim();
  if (QUESTION_MARK.test(folded)) return !hasCue(RHETORICAL_QUESTIONS, folded) && !isHeadline(folded, sentence);
  const isOneSentence = !/[.!;\n]\s+\S/.test(sentence);
  return isOneSentence && opensLikeAQuestion(sentence) && !EXCLAMATION_ENDING.test(sentence);
}
