import { Client, Pool } from 'pg';

/**
 * Tells the feed followers that events were appended, so they read at once instead of at their
 * next poll. Only a hint: followers also poll, so a lost signal costs latency, never an event.
 */
export interface AppendSignal {
  /** After an append has committed. */
  signal(): void;
  /** Calls wake() on every signal (from any process) until the returned closer is called. */
  listen(wake: () => void): Promise<() => Promise<void>>;
}

export const EVENTS_APPENDED_CHANNEL = 'events_appended';

/**
 * The signal over PostgreSQL's NOTIFY/LISTEN, for a process without another way to reach the
 * followers. Not a trigger inside the append: a transaction that NOTIFYs holds a database-wide
 * lock through its commit, which would serialise every append behind one WAL flush at a time.
 * Instead this sends at most one NOTIFY at a time, outside the append, and coalesces the appends
 * that happen meanwhile into the next one. It costs a statement of its own per append (or burst).
 */
export class PostgresAppendSignal implements AppendSignal {
  private inFlight = false;
  private pending = false;

  constructor(
    private readonly pool: Pool,
    private readonly databaseUrl: string,
  ) {}

  signal(): void {
    if (this.inFlight) {
      this.pending = true;
      return;
    }
    this.inFlight = true;
    this.pool
      .query('SELECT pg_notify($1, $2)', [EVENTS_APPENDED_CHANNEL, ''])
      .catch(() => undefined)
      .finally(() => {
        this.inFlight = false;
        if (this.pending) {
          this.pending = false;
          this.signal();
        }
      });
  }

  /** A dedicated connection LISTENing for the notifications. */
  async listen(wake: () => void): Promise<() => Promise<void>> {
    const client = new Client({ connectionString: this.databaseUrl });
    client.on('error', () => undefined); // a lost listener only costs latency: the follower also polls
    await client.connect();
    client.on('notification', wake);
    await client.query(`LISTEN ${EVENTS_APPENDED_CHANNEL}`);
    return async () => {
      await client.end().catch(() => undefined);
    };
  }
}
