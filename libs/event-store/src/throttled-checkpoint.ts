import { comparePositions, GlobalPosition } from '@app/contracts';
import { CheckpointStore } from './checkpoint-store';

/**
 * A follower's checkpoint saved at most once per `everyMs` while the feed keeps
 * coming: the first advance after a quiet spell is saved at once, the later ones
 * of the spell once at its end (the last position wins). For a follower whose
 * repeats are harmless (the relay: JetStream drops a resend inside its duplicate
 * window), so that a burst pays one statement per `everyMs`, not one per batch.
 * What a crash loses is at most `everyMs` of progress, sent again on restart.
 *
 * Saves go one after another, so the stored position never moves back. A save
 * that fails leaves its position pending: the next advance or flush tries again.
 */
export class ThrottledCheckpoint {
  private pending: GlobalPosition | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastSaveAt = Number.NEGATIVE_INFINITY;
  /** The saves in flight, one after another; never rejects (each save's caller hears its own failure). */
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly checkpoints: CheckpointStore,
    private readonly name: string,
    private readonly everyMs: number,
    private readonly onLateFailure: (error: unknown) => void,
  ) {}

  /** The follower has handled the feed up to `position`: saved now (awaited) or at the end of the spell (not awaited). */
  advance(position: GlobalPosition): Promise<void> {
    if (!this.pending || comparePositions(position, this.pending) > 0) this.pending = position;
    if (this.timer) return Promise.resolve();
    const wait = this.lastSaveAt + this.everyMs - Date.now();
    if (wait <= 0) return this.flush();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush().catch(this.onLateFailure);
    }, wait);
    this.timer.unref();
    return Promise.resolve();
  }

  /**
   * Saves the pending position now (a failure, a stop, a resume), after the saves in flight:
   * once it resolves, the store holds where the follower is.
   */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const position = this.pending;
    if (!position) return this.saving;
    this.pending = null;
    this.lastSaveAt = Date.now();
    const save = this.saving
      .then(() => this.checkpoints.save(this.name, position))
      .catch((error: unknown) => {
        // Not lost: saved with the next advance or flush, unless a later position is pending by then.
        if (!this.pending || comparePositions(position, this.pending) > 0) this.pending = position;
        throw error;
      });
    this.saving = save.catch(() => undefined);
    return save;
  }
}
