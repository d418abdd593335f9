/**
 * Reads asked for in the same moment (one event-loop turn: the commands of one
 * NATS read, the waiters one projection advance wakes) go to the database as
 * one: each key once, all keys in one call of `load`. The call is made after
 * the turn, so after every caller asked: a read never answers from before its
 * caller's request (read-your-writes holds as with a query of its own).
 */
export class SameMomentReads<K, V> {
  private pending = new Map<K, Array<{ resolve: (value: V | undefined) => void; reject: (error: unknown) => void }>>();

  /** `load` answers the keys it was given (a key missing from its map: nothing there). */
  constructor(private readonly load: (keys: K[]) => Promise<Map<K, V>>) {}

  get(key: K): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) setImmediate(() => void this.flush());
      const waiting = this.pending.get(key);
      if (waiting) waiting.push({ resolve, reject });
      else this.pending.set(key, [{ resolve, reject }]);
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    try {
      const values = await this.load([...batch.keys()]);
      for (const [key, waiting] of batch) for (const caller of waiting) caller.resolve(values.get(key));
    } catch (error) {
      for (const waiting of batch.values()) for (const caller of waiting) caller.reject(error);
    }
  }
}
