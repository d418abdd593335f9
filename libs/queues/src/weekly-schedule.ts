import { DateTime, IANAZone } from 'luxon';

/** The days of a weekly posting schedule, Monday first (ISO 8601 weekday 1..7). */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const FULL_DAY_NAMES = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

/** One weekly slot: a day and a wall-clock time ("HH:MM", 24 h) in the schedule's time zone. */
export interface WeeklySlot {
  day: Weekday;
  time: string;
}

/** An account's posting schedule: weekly slots read in one IANA time zone. */
export interface WeeklySchedule {
  timezone: string;
  slots: WeeklySlot[];
}

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** `mon`..`sun` or `monday`..`sunday`, any case, as the schedule stores it (`mon`); null when it is neither. */
export function weekdayOf(input: string): Weekday | null {
  const lower = input.trim().toLowerCase();
  const short = WEEKDAYS.find((day) => day === lower);
  if (short) return short;
  const index = FULL_DAY_NAMES.findIndex((day) => day === lower);
  return index >= 0 ? WEEKDAYS[index] : null;
}

/** "HH:MM" on a 24-hour clock (00:00 to 23:59). */
export function isSlotTime(input: string): boolean {
  return TIME.test(input);
}

/** An IANA zone name the date library (and so every computation below) knows, e.g. Europe/Berlin. */
export function isTimeZone(input: string): boolean {
  // A fixed offset ("UTC+2") is no zone of the IANA database: it would ignore daylight saving silently.
  return IANAZone.isValidZone(input) && !/^(utc|gmt)[+-]/i.test(input);
}

/**
 * The instant a wall-clock time of a local date has in `zone`. Daylight saving decides two cases:
 * - the time does not exist that night (spring forward, 02:30 in Berlin on the last Sunday of March):
 *   it moves forward by the gap (03:30), as Luxon and Temporal's "compatible" disambiguation both do,
 *   so a post planned for that night still goes out that night, just after the change;
 * - the time exists twice (fall back, 02:30 in Berlin or 01:30 in New York): the first one
 *   (the earlier instant, still in summer time), so a slot never fires twice.
 */
export function slotInstant(date: { year: number; month: number; day: number }, time: string, zone: string): DateTime {
  const [hour, minute] = time.split(':').map(Number);
  const local = DateTime.fromObject({ ...date, hour, minute }, { zone });
  // Luxon takes the offset in force just before an ambiguous time, which is the earlier instant; the check keeps the rule explicit.
  const earlier = local.minus({ hours: 1 });
  if (earlier.hour === hour && earlier.minute === minute && earlier.day === local.day && earlier.offset !== local.offset) return earlier;
  return local;
}

/**
 * The schedule's slots as instants in [from, to), in time order, each once (a slot moved forward
 * by a spring-forward gap that lands on another slot is the same instant: one slot).
 */
export function slotsBetween(schedule: WeeklySchedule, from: Date, to: Date): Date[] {
  if (schedule.slots.length === 0 || from >= to) return [];
  const zone = schedule.timezone;
  // A day either side: a local date's slots can fall before or after its UTC date.
  let day = DateTime.fromJSDate(from, { zone }).startOf('day').minus({ days: 1 });
  const last = DateTime.fromJSDate(to, { zone }).startOf('day').plus({ days: 1 });
  const instants = new Set<number>();
  while (day <= last) {
    const weekday = WEEKDAYS[day.weekday - 1];
    for (const slot of schedule.slots) {
      if (slot.day !== weekday) continue;
      const at = slotInstant({ year: day.year, month: day.month, day: day.day }, slot.time, zone).toMillis();
      if (at >= from.getTime() && at < to.getTime()) instants.add(at);
    }
    day = day.plus({ days: 1 });
  }
  return [...instants].sort((a, b) => a - b).map((ms) => new Date(ms));
}

/** The local calendar date ("YYYY-MM-DD") of an instant in `zone`. */
export function localDate(instant: Date, zone: string): string {
  return DateTime.fromJSDate(instant, { zone }).toISODate()!;
}

/** Midnight starting each local date from `from`'s date to `to`'s, in `zone`, as [date, start, end) triples. */
export function localDays(from: Date, to: Date, zone: string): Array<{ date: string; start: Date; end: Date }> {
  const days: Array<{ date: string; start: Date; end: Date }> = [];
  let day = DateTime.fromJSDate(from, { zone }).startOf('day');
  const end = DateTime.fromJSDate(to, { zone });
  while (day < end) {
    const next = day.plus({ days: 1 }).startOf('day');
    days.push({ date: day.toISODate()!, start: day.toJSDate(), end: next.toJSDate() });
    day = next;
  }
  return days;
}

/** An instant as its wall-clock time in `zone`, with the offset (2026-03-29T03:30:00.000+02:00). */
export function wallClock(instant: Date, zone: string): string {
  return DateTime.fromJSDate(instant, { zone }).toISO()!;
}

const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The instants from the start of local date `from` to the end of local date `to` (both included)
 * in `zone`, and how many days that is; null when a date is not a real YYYY-MM-DD date.
 */
export function localDateRange(from: string, to: string, zone: string): { start: Date; end: Date; days: number } | null {
  if (!CALENDAR_DATE.test(from) || !CALENDAR_DATE.test(to)) return null;
  const start = DateTime.fromISO(from, { zone });
  const last = DateTime.fromISO(to, { zone });
  if (!start.isValid || !last.isValid) return null;
  const end = last.plus({ days: 1 }).startOf('day');
  return { start: start.toJSDate(), end: end.toJSDate(), days: Math.round(end.diff(start.startOf('day'), 'days').days) };
}
