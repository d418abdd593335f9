import { hasCue, words } from './cue-matching';

/** Phrases that are ironic on their own in comment sections. */
const IRONIC_PHRASES: readonly RegExp[] = [
  /(?:^|\s)\/s\s*$/,
  /🙃/u,
  words('thanks for nothing', 'yeah right', 'just what i needed', 'love that for me', "can'?t wait to wait", 'nothing says \\w+ like', 'sure, because', 'congrats on making', 'would get \\w+ \\w+ again', 'love (?:how|waiting|that you)', 'nice to see (?:my|that|the)', 'only \\d+ (?:hours|days|weeks|months) for'),
];

/** A cheerful opener ("great, ...", "oh wonderful, ...") that the rest of the comment contradicts. */
const CHEERFUL_OPENER = /^(?:oh\s+|wow,?\s+)?(?:great|wonderful|perfect|fantastic|brilliant|lovely|awesome|amazing|cool(?: cool)*|nice|sure)\s*[,.!]/;

/**
 * Cheap sarcasm detection: an ironic phrase, or a cheerful opener followed by a complaint.
 * It misses subtle sarcasm and says so in the README; it must not fire on plain praise.
 */
export function soundsSarcastic(folded: string, hasComplaintCue: boolean): boolean {
  return hasCue(IRONIC_PHRASES, folded) || (hasComplaintCue && CHEERFUL_OPENER.test(folded.trim()));
}
