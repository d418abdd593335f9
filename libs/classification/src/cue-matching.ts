function occurrences(pattern: RegExp, text: string): number {
  return pattern.global ? (text.match(pattern)?.length ?? 0) : Number(text.search(pattern) >= 0);
}

/** Number of cue occurrences in the text over all patterns (a non-global pattern counts at most once). */
export function countCues(patterns: readonly RegExp[], text: string): number {
  return patterns.reduce((count, pattern) => count + occurrences(pattern, text), 0);
}

/** Number of patterns that occur at least once: for families of cues where repeats add nothing. */
export function countMatchingPatterns(patterns: readonly RegExp[], text: string): number {
  return patterns.filter((pattern) => text.search(pattern) >= 0).length;
}

export function hasCue(patterns: readonly RegExp[], text: string): boolean {
  // `search` ignores lastIndex, so global patterns carry no state between calls.
  return patterns.some((pattern) => text.search(pattern) >= 0);
}

/**
 * Builds a global whole-word pattern from alternatives written for folded text (lowercase,
 * no accents, umlauts as ae/oe/ue). `\b` is ASCII-only, hence the explicit boundaries.
 */
export function words(...alternatives: string[]): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}])`, 'gu');
}
