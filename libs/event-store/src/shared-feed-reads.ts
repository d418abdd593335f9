import { formatPosition, GlobalPosition } from '@app/contracts';
import type { RecordedEvent } from './event-store.port';

/** How recent a read must be for another follower to take its answer (a poll must not be answered from before it). */
const SHARED_READ_MAX_AGE_MS = 50;

interface Read {
  after: string;
  maxCount: number;
  startedAt: number;
  /** The signals heard when it started: one heard since may be of an append it does not show. */
  signalsAtStart: number;
  events: Promise<RecordedEvent[]>;
}

/**
 * The feed reads of one process's followers, shared: the followers woken by the same append (the
 * projector's read models and its relay) usually ask for the feed from the same position a moment
 * apart, and the second gets the first one's answer instead of a statement of its own. Only while
 * that answer is what a read of its own would return now: the same position and size, started
 * less than SHARED_READ_MAX_AGE_MS ago, and no append signalled since it started (a follower given
 * a short batch sleeps until the next signal, so it must not be given one that misses an append
 * whose signal it has already taken). A follower at another position reads on its own.
 */
export class SharedFeedReads {
  private signals = 0;
  private last: Read | null = null;

  constructor(private readonly read: (after: GlobalPosition, maxCount: number) => Promise<RecordedEvent[]>) {}

  /**
   * An append was signalled (called before the followers are woken), or a follower began to listen
   * (an append made while none listened was heard by nobody): no read begun before is an answer now.
   */
  heard(): void {
    this.signals += 1;
  }

  readAll(after: GlobalPosition, maxCount: number): Promise<RecordedEvent[]> {
    const key = formatPosition(after);
    const now = performance.now();
    const last = this.last;
    if (last && last.after === key && last.maxCount === maxCount && last.signalsAtStart === this.signals && now - last.startedAt < SHARED_READ_MAX_AGE_MS) {
      return last.events;
    }
    const read: Read = { after: key, maxCount, startedAt: now, signalsAtStart: this.signals, events: this.read(after, maxCount) };
    this.last = read;
    // A failed read is nobody's answer: the next follower reads on its own.
    read.events.catch(() => {
      if (this.last === read) this.last = null;
    });
    return read.events;
  }
}
