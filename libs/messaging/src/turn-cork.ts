/**
 * Holds back what is sent during one event-loop turn and sends it all right
 * after that turn (setImmediate), in one go: the NATS client writes what is
 * sent within one microtask run as one socket write, so the replies of all
 * the commands settled in one turn leave in one write instead of one each
 * (the commands themselves are gathered per turn by CommandClient). System calls are dear on these machines (the
 * socket writes were 30–50% of each process's CPU in the profiles of issue 11).
 * The delay is the rest of the current turn, not a timer.
 */
export class TurnCork {
  private queued: Array<() => void> = [];

  run(send: () => void): void {
    if (this.queued.length === 0) setImmediate(() => this.flush());
    this.queued.push(send);
  }

  private flush(): void {
    const queued = this.queued;
    this.queued = [];
    for (const send of queued) send();
  }
}
