import type { PublishedLookup } from '../connector';
import { PlatformCallFailed } from '../http/platform-http';
import { malformedAnswer } from '../outcome';
import { comparableText } from './connector-context';

/**
 * How far a platform's clock may run behind ours: a candidate created up to this long before
 * the attempt started still counts. Platforms keep NTP time and several give whole seconds only,
 * so a few seconds cover both; a post of an earlier attempt with the same text made within this
 * margin would make the lookup ambiguous (refused), never a wrong pick.
 */
export const CLOCK_SKEW_ALLOWANCE_MS = 5_000;

/** At most this many pages are read; a window that reaches further back is "could not look", never "not there". */
export const MAX_LOOKUP_PAGES = 10;

/** One of the account's items as its platform lists it, reduced to what the marker compares. */
export interface PublishedCandidate {
  platformPostId: string;
  url: string;
  /** The text as the platform gives it back (caption, commentary, description...). */
  text: string;
  /** Epoch ms of its creation on the platform. */
  createdAtMs: number;
  /** How many media items it carries; null where the platform's listing does not tell. */
  mediaCount: number | null;
}

/** One page of a listing, newest first, and the cursor of the next (older) page, null at the end. */
export interface CandidatePage {
  candidates: PublishedCandidate[];
  next: string | null;
}

/**
 * The start of the window a post of this attempt was created in: the attempt's start
 * (PublishedLookup.attemptStartedAt), less the clock skew allowance, in epoch ms.
 */
export function windowStartMs(request: PublishedLookup): number {
  const started = Date.parse(request.attemptStartedAt);
  if (!Number.isFinite(started)) throw new Error(`attemptStartedAt is not a time: ${request.attemptStartedAt}`);
  return started - CLOCK_SKEW_ALLOWANCE_MS;
}

/**
 * Reconciliation's marker, the same on every platform: the post is the one item of the account
 * created since the attempt started, carrying exactly the text sent (links stripped and
 * whitespace collapsed, as platforms rewrite both) and, where the platform tells, as many media
 * items as sent (so a media-only post matches only an item with the same media count, never any
 * other media-only item). Pages are read newest first until one reaches before the window.
 *
 * - none: null (not there);
 * - one: it;
 * - several (two of our posts with the same text and media count to one account at the same
 *   time, or an earlier attempt's post inside the skew allowance): no pick is safe, since
 *   claiming another publication's item would report this one live when it may not be, so the
 *   lookup fails with `lookup_ambiguous` (not retryable) and the caller ends it as outcome_unknown.
 */
export async function findInWindow(
  request: PublishedLookup,
  platformName: string,
  readPage: (cursor: string | null) => Promise<CandidatePage>,
): Promise<{ platformPostId: string; url: string } | null> {
  const since = windowStartMs(request);
  const wanted = comparableText(request.content);
  const matches = new Map<string, PublishedCandidate>();
  let cursor: string | null = null;
  for (let page = 1; ; page++) {
    const { candidates, next } = await readPage(cursor);
    for (const candidate of candidates) {
      if (!Number.isFinite(candidate.createdAtMs)) throw malformedAnswer(`creation time on ${platformName} item ${candidate.platformPostId}`);
      const sameMedia = candidate.mediaCount === null || candidate.mediaCount === request.media.length;
      if (candidate.createdAtMs >= since && sameMedia && comparableText(candidate.text) === wanted) matches.set(candidate.platformPostId, candidate);
    }
    const reachedBeforeWindow = candidates.some((candidate) => candidate.createdAtMs < since);
    if (reachedBeforeWindow || next === null || candidates.length === 0) break;
    if (page === MAX_LOOKUP_PAGES) {
      throw new PlatformCallFailed({
        code: 'lookup_incomplete',
        message: `${platformName} listed more than ${MAX_LOOKUP_PAGES} pages of items since the attempt started; the post was not looked for further`,
        retryable: false,
      });
    }
    cursor = next;
  }
  if (matches.size > 1) {
    throw new PlatformCallFailed({
      code: 'lookup_ambiguous',
      message: `${matches.size} ${platformName} items (${[...matches.keys()].join(', ')}) carry this text and media since the attempt started; none is picked`,
      retryable: false,
    });
  }
  const [match] = matches.values();
  return match ? { platformPostId: match.platformPostId, url: match.url } : null;
}

/**
 * A platform time as epoch ms: ISO 8601 with Z or an offset (Graph's `+0000` included), a
 * zone-less ISO time read as UTC (Pinterest), or epoch seconds / milliseconds as a number.
 */
export function platformTimeMs(value: unknown, unit: 'iso' | 'seconds' | 'milliseconds' = 'iso'): number {
  if (unit === 'seconds') return typeof value === 'number' ? value * 1000 : Number.NaN;
  if (unit === 'milliseconds') return typeof value === 'number' ? value : Number.NaN;
  if (typeof value !== 'string') return Number.NaN;
  const withZone = /(?:Z|[+-]\d{2}:?\d{2})$/.test(value) ? value : `${value}Z`;
  return Date.parse(withZone.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
}
