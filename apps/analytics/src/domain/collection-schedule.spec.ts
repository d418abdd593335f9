import { DEFAULT_COLLECTION_SCHEDULE, parseScheduleSteps } from '@app/config';
import { collectionsPerItem, nextCollectionAt } from './collection-schedule';

const published = new Date('2026-05-04T00:00:00Z');
const at = (ms: number) => new Date(published.getTime() + ms);
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe('the collection schedule', () => {
  const schedule = DEFAULT_COLLECTION_SCHEDULE;

  it('collects first soon after publishing', () => {
    expect(nextCollectionAt(schedule, published, null)).toEqual(at(5 * MIN));
  });

  it('slows down as the item ages: 15 minutes, then hourly, daily, weekly', () => {
    expect(nextCollectionAt(schedule, published, at(5 * MIN))).toEqual(at(20 * MIN));
    expect(nextCollectionAt(schedule, published, at(7 * HOUR))).toEqual(at(8 * HOUR));
    expect(nextCollectionAt(schedule, published, at(3 * DAY))).toEqual(at(4 * DAY));
    expect(nextCollectionAt(schedule, published, at(31 * DAY))).toEqual(at(38 * DAY));
  });

  it('stops past the last step', () => {
    expect(nextCollectionAt(schedule, published, at(86 * DAY))).toBeNull();
    expect(nextCollectionAt(schedule, published, at(90 * DAY))).toBeNull();
  });

  it('makes about a hundred collections per item over 90 days', () => {
    expect(collectionsPerItem(schedule)).toBeGreaterThan(80);
    expect(collectionsPerItem(schedule)).toBeLessThan(120);
  });

  it("npm start's pace: within 30 s, then every minute for the first hour", () => {
    const local = { firstAfterMs: 10_000, steps: parseScheduleSteps('1m/1h,1h/2d,1d/30d,7d/90d') };
    const first = nextCollectionAt(local, published, null)!;
    expect(first.getTime() - published.getTime()).toBeLessThanOrEqual(30_000);
    expect(nextCollectionAt(local, published, first)!.getTime() - first.getTime()).toBe(MIN);
  });
});

describe('ANALYTICS_SCHEDULE', () => {
  it('reads every/until pairs', () => {
    expect(parseScheduleSteps('15m/6h,1d/30d')).toEqual([
      { everyMs: 15 * MIN, untilMs: 6 * HOUR },
      { everyMs: DAY, untilMs: 30 * DAY },
    ]);
  });

  it.each(['15m', '15m/6h/1d', 'soon/6h', '1h/2d,1h/1d', '0s/1h'])('refuses %s', (text) => {
    expect(() => parseScheduleSteps(text)).toThrow(/ANALYTICS_SCHEDULE|duration/);
  });
});
