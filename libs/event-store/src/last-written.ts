/**
 * The values last written, by key, up to a capacity (the least recently written go first), for a
 * writer that works on from its own last write instead of reading it back: a command runner's
 * streams (command-runner-cache.ts), the projector's post rows. take() hands a value out, so a
 * batch that fails half-way leaves nothing behind; the writer puts back what it wrote.
 */
export class LastWritten<V> {
  /** In the order they were written (a Map keeps insertion order): the oldest goes first. */
  private readonly values = new Map<string, V>();

  constructor(private readonly capacity: number) {}

  /** Removes and returns the value held for `key`; null when none is. */
  take(key: string): V | null {
    const value = this.values.get(key) ?? null;
    this.values.delete(key);
    return value;
  }

  /** Holds `value` for `key` as the newest; the oldest beyond the capacity go. */
  set(key: string, value: V): void {
    this.values.delete(key);
    this.values.set(key, value);
    if (this.values.size > this.capacity) this.values.delete(this.values.keys().next().value as string);
  }

  forget(key: string): void {
    this.values.delete(key);
  }

  forgetAll(): void {
    this.values.clear();
  }

  get size(): number {
    return this.values.size;
  }
}
