import { distance } from 'fastest-levenshtein';

/** Case and word separators set aside: publish_now, PublishNow and publish-now all read as publishNow. */
const normalised = (name: string): string => name.toLowerCase().replace(/[-_.\s]/g, '');

/**
 * The known name an unknown one most likely meant, for a "did you mean" hint, or
 * null when none is close. Close: within a third of the known name's length in
 * edits (at least one), once case and separators are set aside — near enough for
 * a typo (cursr, accountID, scheduled_at), not for another word (tag is not limit).
 * The fewest edits win; a tie goes to the name listed first.
 */
export function closestName(unknown: string, known: readonly string[]): string | null {
  const target = normalised(unknown);
  let best: { name: string; edits: number } | null = null;
  for (const name of known) {
    const edits = distance(target, normalised(name));
    if (edits <= Math.max(1, Math.floor(name.length / 3)) && (best === null || edits < best.edits)) best = { name, edits };
  }
  return best?.name ?? null;
}
