import type { BatchHandler, FeedSubscription, RecordedEvent } from './event-store.port';
import type { GlobalPosition } from '@app/contracts';

export interface FollowFeedOptions {
  after: GlobalPosition;
  handler: BatchHandler;
  batchSize: number;
  read: (after: GlobalPosition, maxCount: number) => Promise<RecordedEvent[]>;
  /** Fallback poll when no wake-up comes (a notification lost, or one that arrived before the events were visible). */
  pollIntervalMs: number;
  /** Optional push signal: calls wake() when new events may be readable; returns its closer. */
  listen?: (wake: () => void) => Promise<() => Promise<void>>;
}

/**
 * Reads the feed in batches until caught up, then sleeps until woken or the
 * poll interval passes. Shared by adapters whose store offers reads plus a
 * wake-up signal rather than a push subscription.
 */
export function followFeed(options: FollowFeedOptions): FeedSubscription {
  let stopped = false;
  let wakeUp: (() => void) | null = null;
  let pendingWake = false;
  const wake = () => {
    pendingWake = true;
    wakeUp?.();
  };
  const sleep = () =>
    new Promise<void>((resolve) => {
      if (pendingWake || stopped) return resolve();
      const timer = setTimeout(done, options.pollIntervalMs);
      function done() {
        clearTimeout(timer);
        wakeUp = null;
        resolve();
      }
      wakeUp = done;
    });

  const run = async () => {
    const unlisten = options.listen ? await options.listen(wake) : null;
    try {
      let position = options.after;
      while (!stopped) {
        pendingWake = false;
        const batch = await options.read(position, options.batchSize);
        if (stopped) break;
        if (batch.length > 0) {
          await options.handler(batch);
          position = batch[batch.length - 1].position;
        }
        if (batch.length < options.batchSize) await sleep();
      }
    } finally {
      await unlisten?.();
    }
  };
  const done = run();
  done.catch(() => undefined); // observed through `done` by the owner
  return {
    done,
    async stop() {
      stopped = true;
      wakeUp?.();
      await done.catch(() => undefined);
    },
  };
}
