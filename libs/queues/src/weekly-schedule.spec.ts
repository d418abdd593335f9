import { isSlotTime, isTimeZone, localDays, slotInstant, slotsBetween, weekdayOf, WeeklySchedule } from './weekly-schedule';

describe('weekly posting schedule', () => {
  it('reads days short or long, any case, and refuses anything else', () => {
    expect(weekdayOf('mon')).toBe('mon');
    expect(weekdayOf('Sunday')).toBe('sun');
    expect(weekdayOf('TUESDAY')).toBe('tue');
    expect(weekdayOf('tues')).toBeNull();
    expect(weekdayOf('')).toBeNull();
  });

  it('takes HH:MM on a 24-hour clock only', () => {
    expect(['00:00', '09:05', '23:59'].every(isSlotTime)).toBe(true);
    expect(['24:00', '9:05', '09:60', '09:05:00', 'noon'].some(isSlotTime)).toBe(false);
  });

  it('knows IANA zones and refuses made-up ones and fixed offsets', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('America/New_York')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Europe/Atlantis')).toBe(false);
    expect(isTimeZone('UTC+2')).toBe(false);
  });

  describe('across daylight saving', () => {
    it('moves a slot that does not exist (spring forward) forward by the gap: Europe/Berlin 02:30 → 03:30 CEST', () => {
      // 29 March 2026: clocks go from 02:00 CET to 03:00 CEST.
      expect(slotInstant({ year: 2026, month: 3, day: 29 }, '02:30', 'Europe/Berlin').toUTC().toISO()).toBe('2026-03-29T01:30:00.000Z');
      expect(slotInstant({ year: 2026, month: 3, day: 29 }, '02:30', 'Europe/Berlin').toISO()).toBe('2026-03-29T03:30:00.000+02:00');
    });

    it('moves a slot that does not exist forward: America/New_York 02:30 → 03:30 EDT', () => {
      // 8 March 2026: clocks go from 02:00 EST to 03:00 EDT.
      expect(slotInstant({ year: 2026, month: 3, day: 8 }, '02:30', 'America/New_York').toUTC().toISO()).toBe('2026-03-08T07:30:00.000Z');
    });

    it('takes the first of a time that exists twice (fall back): Europe/Berlin 02:30 CEST, not CET', () => {
      // 25 October 2026: 02:00–03:00 happens in CEST (+02:00), then again in CET (+01:00).
      expect(slotInstant({ year: 2026, month: 10, day: 25 }, '02:30', 'Europe/Berlin').toUTC().toISO()).toBe('2026-10-25T00:30:00.000Z');
    });

    it('takes the first of a time that exists twice: America/New_York 01:30 EDT, not EST', () => {
      // 1 November 2026: 01:00–02:00 happens in EDT (-04:00), then again in EST (-05:00).
      expect(slotInstant({ year: 2026, month: 11, day: 1 }, '01:30', 'America/New_York').toUTC().toISO()).toBe('2026-11-01T05:30:00.000Z');
    });

    it('keeps the wall-clock time on either side of a change (09:00 stays 09:00 local, its UTC moves)', () => {
      const schedule: WeeklySchedule = { timezone: 'Europe/Berlin', slots: [{ day: 'sat', time: '09:00' }, { day: 'sun', time: '09:00' }] };
      const slots = slotsBetween(schedule, new Date('2026-03-28T00:00:00Z'), new Date('2026-03-30T00:00:00Z')).map((d) => d.toISOString());
      expect(slots).toEqual(['2026-03-28T08:00:00.000Z', '2026-03-29T07:00:00.000Z']);
    });

    it('lists a slot once when the spring-forward shift lands it on another slot, and once on the doubled night', () => {
      const spring: WeeklySchedule = { timezone: 'Europe/Berlin', slots: [{ day: 'sun', time: '02:30' }, { day: 'sun', time: '03:30' }] };
      expect(slotsBetween(spring, new Date('2026-03-29T00:00:00Z'), new Date('2026-03-30T00:00:00Z')).map((d) => d.toISOString())).toEqual(['2026-03-29T01:30:00.000Z']);
      const autumn: WeeklySchedule = { timezone: 'America/New_York', slots: [{ day: 'sun', time: '01:30' }] };
      expect(slotsBetween(autumn, new Date('2026-11-01T00:00:00Z'), new Date('2026-11-02T00:00:00Z')).map((d) => d.toISOString())).toEqual(['2026-11-01T05:30:00.000Z']);
    });
  });

  it('lists slots in [from, to) in time order over several weeks', () => {
    const schedule: WeeklySchedule = { timezone: 'UTC', slots: [{ day: 'wed', time: '12:00' }, { day: 'mon', time: '08:00' }] };
    // 2 November 2026 is a Monday.
    const slots = slotsBetween(schedule, new Date('2026-11-02T08:00:00Z'), new Date('2026-11-11T12:00:00Z')).map((d) => d.toISOString());
    expect(slots).toEqual(['2026-11-02T08:00:00.000Z', '2026-11-04T12:00:00.000Z', '2026-11-09T08:00:00.000Z']);
    expect(slotsBetween({ timezone: 'UTC', slots: [] }, new Date('2026-11-02T00:00:00Z'), new Date('2026-12-02T00:00:00Z'))).toEqual([]);
  });

  it('cuts local days in the zone, a 23-hour day on the spring-forward date', () => {
    const days = localDays(new Date('2026-03-28T12:00:00Z'), new Date('2026-03-30T12:00:00Z'), 'Europe/Berlin');
    expect(days.map((d) => d.date)).toEqual(['2026-03-28', '2026-03-29', '2026-03-30']);
    expect(days[1].end.getTime() - days[1].start.getTime()).toBe(23 * 3_600_000);
  });
});
