import { RecordedEvent } from '@app/event-store';

/** All events of one stream, in revision order, from the event store (EventStore.readStream). */
export type ReadStream = (streamId: string) => Promise<RecordedEvent[]>;

/**
 * What applying one event did to its stream's view row, whose version counts
 * the stream's events applied so far:
 * - applied: the event was the next one (revision = version), now it is in;
 * - replayed: already in (revision < version), nothing changed;
 * - behind: an earlier event is missing (revision > version), nothing changed;
 * - absent: no row for the stream, nothing changed (not created yet, deleted,
 *   or a stream with no view, such as the workspace's own first comment).
 */
export type ApplyOutcome = 'applied' | 'replayed' | 'behind' | 'absent';

/**
 * Why an event is not applied to its stream's view row, which has applied
 * `version` events (undefined: no row); null when it is the row's next event.
 */
export function skipReason(version: number | undefined, revision: bigint): Exclude<ApplyOutcome, 'applied'> | null {
  if (version === undefined) return 'absent';
  const applied = BigInt(version);
  if (applied === revision) return null;
  return applied > revision ? 'replayed' : 'behind';
}

/**
 * The store lacks an event of a stream whose later event it delivered: the
 * batch is not applied (its transaction rolls back) and the feed processor
 * delivers it again from its checkpoint after its retry delay.
 */
export class StreamGapError extends Error {
  constructor(
    readonly streamId: string,
    readonly revision: bigint,
  ) {
    super(`stream ${streamId}: event ${revision} cannot be applied, an earlier event is missing from the store`);
    this.name = 'StreamGapError';
  }
}

/**
 * Applies events so that every view sees its stream's events strictly in
 * revision order, never one past a gap. An event that finds its view behind
 * (an earlier event not applied: delivered late, or out of order) or absent is
 * not applied; the view catches up from the stream itself instead: the whole
 * stream is read from the store and applied in order (events already in are
 * replays and change nothing), and the rest of the batch's events of that
 * stream, already among those read, are passed over.
 */
export async function applyInRevisionOrder(events: RecordedEvent[], apply: (event: RecordedEvent) => Promise<ApplyOutcome>, readStream: ReadStream): Promise<void> {
  const caughtUp = new Set<string>();
  for (const event of events) {
    if (caughtUp.has(event.streamId)) continue;
    const outcome = await apply(event);
    if (outcome === 'applied' || outcome === 'replayed') continue;
    caughtUp.add(event.streamId);
    await catchUpFromStream(event, apply, readStream);
  }
}

async function catchUpFromStream(missed: RecordedEvent, apply: (event: RecordedEvent) => Promise<ApplyOutcome>, readStream: ReadStream): Promise<void> {
  const stream = await readStream(missed.streamId);
  for (const event of stream) {
    const outcome = await apply(event);
    // In stream order an event can only find its view behind when the store itself lacks the one before it.
    if (outcome === 'behind') throw new StreamGapError(event.streamId, event.revision);
    // The stream's view is gone (a deleted post) or never was (the workspace's own comment): nothing further to apply.
    if (outcome === 'absent') return;
  }
}
