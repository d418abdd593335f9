import type { ExpectedRevision } from './event-store.port';

/** A stream as this process last wrote or read it: the folded state, the revision to append after, the global position of its last event. */
export interface KnownStream<S> {
  state: S;
  expected: ExpectedRevision;
  position: string | null;
}

/**
 * How many streams a command runner remembers. The streams worth remembering are
 * the ones commands arrive on again within moments (a post during its
 * publication: an outcome per account, then its first comments), a small set at
 * any time; a miss costs one read of the stream.
 */
export const STREAM_CACHE_SIZE = 1_000;

/**
 * The least recently used streams' states, so a command on a stream this process
 * just wrote appends with the remembered revision instead of reading the stream
 * again. Never trusted blindly: the append's expected-revision check refuses a
 * stale entry (another replica wrote since), and the runner then reads the stream.
 */
export class StreamCache<S> {
  private readonly streams = new Map<string, KnownStream<S>>();

  constructor(private readonly capacity = STREAM_CACHE_SIZE) {}

  /**
   * Removes and returns the entry; the runner puts back what its batch leaves. (Batches of one stream
   * already run one at a time, CommandRunner's queues: taking it means a batch that fails leaves none.)
   */
  take(id: string): KnownStream<S> | null {
    const known = this.streams.get(id) ?? null;
    this.streams.delete(id);
    return known;
  }

  set(id: string, known: KnownStream<S>): void {
    this.streams.delete(id);
    this.streams.set(id, known);
    if (this.streams.size > this.capacity) this.streams.delete(this.streams.keys().next().value as string);
  }
}
