import { EventStore, StreamAppend, StreamAppendOutcome } from './event-store.port';

/** Streams per statement: bounds one append's parameters and the time its batch waits for it. */
const DEFAULT_MAX_STREAMS = 500;

interface Pending {
  append: StreamAppend;
  resolve: (outcome: StreamAppendOutcome) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for appends to distinct streams: appends asked for while one
 * multi-stream append is in flight (or in the same tick) wait and go together
 * in the next one (EventStore.appendMany), so a burst costs a few statements
 * instead of one per stream, with no timer adding latency to a lone append.
 * Each caller gets its own stream's outcome; a stream asked for twice goes in
 * two successive appends, so the second sees the first's revision.
 */
export class AppendBatcher {
  private queue: Pending[] = [];
  private flushing = false;

  constructor(
    private readonly store: Pick<EventStore, 'appendMany'>,
    private readonly maxStreams = DEFAULT_MAX_STREAMS,
  ) {}

  append(append: StreamAppend): Promise<StreamAppendOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ append, resolve, reject });
      if (!this.flushing) {
        this.flushing = true;
        // After the current tick: appends asked for together (a Promise.all) share the first statement.
        queueMicrotask(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.takeBatch();
      try {
        const outcomes = await this.store.appendMany(batch.map((p) => p.append));
        batch.forEach((pending, i) => pending.resolve(outcomes[i]));
      } catch (error) {
        for (const pending of batch) pending.reject(error);
      }
    }
    this.flushing = false;
  }

  /** The oldest waiting appends, one per stream, up to maxStreams; the rest stay queued in order. */
  private takeBatch(): Pending[] {
    const batch: Pending[] = [];
    const streams = new Set<string>();
    const left: Pending[] = [];
    for (const pending of this.queue) {
      if (batch.length < this.maxStreams && !streams.has(pending.append.streamId)) {
        streams.add(pending.append.streamId);
        batch.push(pending);
      } else left.push(pending);
    }
    this.queue = left;
    return batch;
  }
}
