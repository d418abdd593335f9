import { CollectionSchedule } from '@app/config';

/**
 * The next collection after one at `lastAt` (null: none yet) of an item live since
 * `publishedAt`; null when the item is past the schedule's end.
 */
export function nextCollectionAt(schedule: CollectionSchedule, publishedAt: Date, lastAt: Date | null): Date | null {
  const end = schedule.steps.at(-1)?.untilMs ?? 0;
  if (lastAt === null) return schedule.firstAfterMs < end ? new Date(publishedAt.getTime() + schedule.firstAfterMs) : null;
  const age = lastAt.getTime() - publishedAt.getTime();
  const step = schedule.steps.find((s) => age < s.untilMs);
  if (!step) return null;
  const next = lastAt.getTime() + step.everyMs;
  return next - publishedAt.getTime() <= end ? new Date(next) : null;
}

/** How many collections the schedule makes of one item over its whole life (the bench's and the README's figure). */
export function collectionsPerItem(schedule: CollectionSchedule): number {
  const publishedAt = new Date(0);
  let count = 0;
  for (let at = nextCollectionAt(schedule, publishedAt, null); at; at = nextCollectionAt(schedule, publishedAt, at)) count++;
  return count;
}

