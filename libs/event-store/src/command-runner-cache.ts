import type { ExpectedRevision } from './event-store.port';

/** A stream as this process last wrote or read it: the folded state, the revision to append after, the global position of its last event. */
export interface KnownStream<S> {
  state: S;
  expected: ExpectedRevision;
  position: string | null;
}

/**
 * How many streams a command runner remembers (LastWritten). The streams worth
 * remembering are the ones commands arrive on again within moments (a post during
 * its publication: an outcome per account, then its first comments), a small set
 * at any time; a miss costs one read of the stream. Never trusted blindly: the
 * append's expected-revision check refuses a stale entry (another replica wrote
 * since), and the runner then reads the stream.
 */
export const STREAM_CACHE_SIZE = 1_000;
