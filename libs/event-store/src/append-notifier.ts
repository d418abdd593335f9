import { Pool } from 'pg';

export const EVENTS_APPENDED_CHANNEL = 'events_appended';

/**
 * Wakes feed followers after appends. Not a trigger inside the append: a
 * transaction that NOTIFYs holds a database-wide lock through its commit, which
 * would serialise every append behind one WAL flush at a time. Instead this
 * sends at most one NOTIFY at a time, outside the append, and coalesces the
 * appends that happen meanwhile into the next one. It is only a hint: followers
 * also poll, so a lost notification costs latency, never an event.
 */
export class AppendNotifier {
  private inFlight = false;
  private pending = false;

  constructor(private readonly pool: Pool) {}

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
}
