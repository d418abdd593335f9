import { createHash } from 'node:crypto';
import { classifyComment } from './classify-comment';
import { CommentClassification } from './comment-classification';

/**
 * Comments whose reading changed with every known fix of the classifier (the
 * error classes of issue 13: thresholds, negation, slang, sarcasm, spam,
 * questions, urgency), one per tag and sentiment at least.
 */
const PROBES = [
  'Love it, thank you so much!',
  'This broke everything, awful.',
  'Not a great way to start the day',
  'The new update is unbelievable. Can’t wait',
  'I hope this company dies in a fire',
  'Oh great, another outage. Just what I needed.',
  'check out my channel and subscribe',
  'hi http://bit.ly/xyz',
  'please visit my channel for more',
  'How much is the large one? Do you ship to Norway?',
  'How this brand is using AI to change retail',
  'When will you fix the login? I cannot access my account',
  'The app leaks my password, this is a safety and legal problem',
  'Where can I buy it?',
  'ok',
  'Congrats to the whole team 🎉',
];

/**
 * The classifier's version as its answers show it: a fingerprint of what
 * classifyComment answers on fixed probes. Two deployments with the same
 * classifier give the same version; a change that alters any of these
 * answers gives another. It only labels CommentReclassified (what decides
 * whether one is appended is the comment's own reading, see apps/comments/src/domain/decide-reclassify.ts).
 * Computed once per run by whoever reclassifies (tools/reclassify.ts), not per comment.
 * `classify` stands for the classifier whose version it is (this one unless told).
 */
export function classifierVersion(classify: (text: string) => CommentClassification = classifyComment): string {
  const answers = PROBES.map((text) => classify(text));
  return createHash('sha256').update(JSON.stringify(answers)).digest('hex').slice(0, 12);
}
