/**
 * When an item's numbers are collected: a first time soon after it went live,
 * then at a pace that slows as it ages (numbers move most in the first hours).
 * Each step says "every `everyMs` while the item is younger than `untilMs`";
 * past the last step the item is no longer collected. Pure: times passed in.
 */
export interface ScheduleStep {
  everyMs: number;
  untilMs: number;
}

export interface CollectionSchedule {
  /** Delay between going live and the first collection. */
  firstAfterMs: number;
  /** Ordered by untilMs. */
  steps: ScheduleStep[];
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Production default: every 15 minutes for 6 hours, hourly to 2 days, daily to 30 days, weekly to 90 days; the first after 5 minutes. */
export const DEFAULT_COLLECTION_SCHEDULE: CollectionSchedule = {
  firstAfterMs: 5 * MINUTE,
  steps: [
    { everyMs: 15 * MINUTE, untilMs: 6 * HOUR },
    { everyMs: HOUR, untilMs: 2 * DAY },
    { everyMs: DAY, untilMs: 30 * DAY },
    { everyMs: 7 * DAY, untilMs: 90 * DAY },
  ],
};

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: MINUTE, h: HOUR, d: DAY, w: 7 * DAY };

/** "500ms", "30s", "15m", "6h", "30d", "2w" in milliseconds. */
export function parseDuration(text: string): number {
  const match = /^(\d+)(ms|s|m|h|d|w)$/.exec(text.trim());
  if (!match) throw new Error(`${JSON.stringify(text)} is not a duration like 30s, 15m, 6h, 30d`);
  return Number(match[1]) * UNIT_MS[match[2]];
}

/**
 * ANALYTICS_SCHEDULE: `every/until` pairs, comma-separated, e.g. the default
 * "15m/6h,1h/2d,1d/30d,7d/90d"; each until beyond the one before, each every positive.
 */
export function parseScheduleSteps(text: string): ScheduleStep[] {
  const steps = text.split(',').map((pair) => {
    const [every, until, extra] = pair.split('/');
    if (until === undefined || extra !== undefined) throw new Error(`ANALYTICS_SCHEDULE: ${JSON.stringify(pair)} is not every/until (e.g. 15m/6h)`);
    return { everyMs: parseDuration(every), untilMs: parseDuration(until) };
  });
  steps.forEach((step, i) => {
    if (step.everyMs <= 0) throw new Error('ANALYTICS_SCHEDULE: every interval must be positive');
    if (i > 0 && step.untilMs <= steps[i - 1].untilMs) throw new Error('ANALYTICS_SCHEDULE: each until must be later than the one before');
  });
  return steps;
}
