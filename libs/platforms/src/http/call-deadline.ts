import { EventEmitter } from 'node:events';

/** A platform call that outlived the policy's requestTimeoutMs and was abandoned. */
export class CallTimedOut extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no complete answer within ${timeoutMs} ms`);
    this.name = 'CallTimedOut';
  }
}

/**
 * The whole-call bound (connect, send, headers and the full body) as the abort source
 * undici's request takes: an EventEmitter emitting 'abort' with `reason`, so undici
 * rejects the call, or errors its body mid-read, with CallTimedOut itself. One timer per
 * call and no AbortSignal: AbortSignal.timeout's per-call setup (a transferable
 * EventTarget) was a large part of what a platform call cost the publisher.
 */
export class CallDeadline extends EventEmitter {
  aborted = false;
  reason: CallTimedOut | null = null;
  private readonly timer: NodeJS.Timeout;

  constructor(timeoutMs: number) {
    super();
    this.timer = setTimeout(() => {
      this.aborted = true;
      this.reason = new CallTimedOut(timeoutMs);
      this.emit('abort');
    }, timeoutMs);
  }

  /** The call settled (answered and read, or failed): its timer must not outlive it. */
  clear(): void {
    clearTimeout(this.timer);
  }
}
