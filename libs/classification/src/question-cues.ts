import { hasCue, words } from './cue-matching';

/** Openings that make a sentence a question even without "?" (people often skip it). */
const INTERROGATIVE_OPENINGS: readonly RegExp[] = [
  // English
  /^(?:how|what|what's|whats|when|where|where's|why|who|which|whose)\b/,
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

/**
 * Asks something: a question mark anywhere ("Part 2 when?", "Link?"), a help request, or a
 * one-sentence comment that opens like a question ("is there a dark mode"). Longer comments
 * without "?" are not read by their openings: "When my payments stopped..." starts a story.
 */
export function isQuestion(folded: string): boolean {
  if (QUESTION_MARK.test(folded) || hasCue(HELP_REQUESTS, folded)) return true;
  const sentence = folded.replace(LEADING_NOISE, '').trim();
  const isOneSentence = !/[.!;\n]\s+\S/.test(sentence);
  return isOneSentence && hasCue(INTERROGATIVE_OPENINGS, sentence) && !EXCLAMATION_ENDING.test(sentence);
}
