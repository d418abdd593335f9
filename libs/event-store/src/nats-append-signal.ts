import { NatsConnection } from 'nats';
import type { AppendSignal } from './append-signal';

/**
 * The append signal over core NATS: one empty message on `subject` per burst of appends (those
 * of one event-loop turn), which the client writes with the turn's other messages (the command
 * replies), so it costs no round trip and no statement. No stream keeps it: a follower that is
 * not connected when it goes reads at its next poll, as with a lost NOTIFY.
 */
export class NatsAppendSignal implements AppendSignal {
  private scheduled = false;

  constructor(
    private readonly nc: NatsConnection,
    private readonly subject: string,
  ) {}

  signal(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      try {
        this.nc.publish(this.subject);
      } catch {
        // A connection closing (shutdown) or lost only loses the hint.
      }
    });
  }

  async listen(wake: () => void): Promise<() => Promise<void>> {
    const subscription = this.nc.subscribe(this.subject, { callback: () => wake() });
    // The subscription is on the server before the follower's first read, so no append after that read goes unheard.
    await this.nc.flush();
    return async () => subscription.unsubscribe();
  }
}
