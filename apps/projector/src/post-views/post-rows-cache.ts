import { LastWritten } from '@app/event-store';

/**
 * The post rows the projector wrote last, by post id, so that a batch about posts it has just
 * written (a publication's starts and outcomes, moments after its creation) folds them without
 * reading them back: one statement less per batch, and one round trip less before a publishNow's
 * answer.
 *
 * An entry is only ever a state its row truly had: a row read from the table, or one folded from
 * its stream's events up to its version. Every write is guarded by version (a row only moves
 * forward) and by deletion, so an entry behind the table (another writer, a rebuild switched in)
 * costs a catch-up read of the stream (applyInRevisionOrder), never a wrong row. An entry can be
 * ahead of the table only when the write of its batch failed; the follower then starts again from
 * its checkpoint and the model forgets everything first (ReadModel.restarting).
 */
export class PostRowsCache<Row extends { id: string }> {
  private readonly rows: LastWritten<Row>;

  constructor(capacity = 10_000) {
    this.rows = new LastWritten<Row>(capacity);
  }

  /**
   * The rows held for `ids`, taken out (the fold changes them in place, then remembers the ones it
   * writes: a row it does not write is simply read from the table next time), and the ids not held.
   */
  take(ids: string[]): { held: Row[]; missing: string[] } {
    const held: Row[] = [];
    const missing: string[] = [];
    for (const id of ids) {
      const row = this.rows.take(id);
      if (row) held.push(row);
      else missing.push(id);
    }
    return { held, missing };
  }

  /** Keeps rows about to be written (the caller hands them over and changes them no more), the newest last; the oldest beyond the capacity go. */
  remember(rows: Row[]): void {
    for (const row of rows) this.rows.set(row.id, row);
  }

  forget(ids: Iterable<string>): void {
    for (const id of ids) this.rows.forget(id);
  }

  forgetAll(): void {
    this.rows.forgetAll();
  }

  get size(): number {
    return this.rows.size;
  }
}
