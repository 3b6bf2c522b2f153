import { describe, expect, it } from 'vitest';
import { alertHours, dueReport, isSpike, sameHourBefore, usualLevel } from './report-schedule.ts';

const iso = (date: Date) => date.toISOString();
const at = (instant: string) => new Date(instant);

describe('analytics report schedule', () => {
  it('makes the week before due on Monday from 06:00 in the site time zone, over a daylight-saving change', () => {
    // Monday 30 March 2026, 07:00 in Berlin: summer time began on Sunday the 29th at 02:00.
    const due = dueReport('weekly', at('2026-03-30T05:00:00Z'), 'Europe/Berlin');
    expect(due?.period).toMatchObject({ from: '2026-03-23', to: '2026-03-29', bucket: 'day' });
    expect(iso(due?.period.start as Date)).toBe('2026-03-22T23:00:00.000Z');
    // The week's last midnight is on the summer clock: 167 hours in all.
    expect(iso(due?.period.end as Date)).toBe('2026-03-29T22:00:00.000Z');
    expect(due?.period.previous).toMatchObject({ from: '2026-03-16', to: '2026-03-22' });
    expect(iso(due?.period.previous.start as Date)).toBe('2026-03-15T23:00:00.000Z');
    expect(iso(due?.period.previous.end as Date)).toBe('2026-03-22T23:00:00.000Z');
  });

  it('waits for 06:00 on Monday, keeps the report due on Tuesday, and has none due later in the week', () => {
    expect(dueReport('weekly', at('2026-03-30T03:59:00Z'), 'Europe/Berlin')).toBeNull();
    const tuesday = dueReport('weekly', at('2026-03-31T21:00:00Z'), 'Europe/Berlin');
    expect(tuesday?.period).toMatchObject({ from: '2026-03-23', to: '2026-03-29' });
    expect(dueReport('weekly', at('2026-03-31T22:30:00Z'), 'Europe/Berlin')).toBeNull();
    expect(dueReport('weekly', at('2026-04-03T10:00:00Z'), 'Europe/Berlin')).toBeNull();
    expect(dueReport('monthly', at('2026-03-30T10:00:00Z'), 'Europe/Berlin')).toBeNull();
  });

  it('reads the day in the site time zone, not in UTC', () => {
    // Monday 03:00 UTC is still Sunday evening in New York, and already Monday 10:00 in Bangkok.
    expect(dueReport('weekly', at('2026-03-30T03:00:00Z'), 'America/New_York')).toBeNull();
    const bangkok = dueReport('weekly', at('2026-03-29T23:30:00Z'), 'Asia/Bangkok');
    expect(bangkok?.period).toMatchObject({ from: '2026-03-23', to: '2026-03-29' });
    expect(iso(bangkok?.period.start as Date)).toBe('2026-03-22T17:00:00.000Z');
  });

  it('makes the month before due on the 1st and compares it with as many days before it', () => {
    const march = dueReport('monthly', at('2026-03-01T06:00:00Z'), 'Europe/Berlin');
    expect(march?.period).toMatchObject({ from: '2026-02-01', to: '2026-02-28' });
    expect(march?.period.previous).toMatchObject({ from: '2026-01-04', to: '2026-01-31' });
    // October 2026 in Berlin ends on the winter clock (the change was on the 25th): 745 hours.
    const november = dueReport('monthly', at('2026-11-02T12:00:00Z'), 'Europe/Berlin');
    expect(november?.period).toMatchObject({ from: '2026-10-01', to: '2026-10-31' });
    expect(iso(november?.period.start as Date)).toBe('2026-09-30T22:00:00.000Z');
    expect(iso(november?.period.end as Date)).toBe('2026-10-31T23:00:00.000Z');
    expect(dueReport('monthly', at('2026-11-03T12:00:00Z'), 'Europe/Berlin')).toBeNull();
    // January's report covers December of the year before.
    expect(dueReport('monthly', at('2027-01-01T12:00:00Z'), 'UTC')?.period).toMatchObject({
      from: '2026-12-01',
      to: '2026-12-31',
    });
  });

  it('looks at the hour that just ended and the one under way, and the same hour on the seven days before', () => {
    // 10:20 in Berlin on the Monday after the spring change.
    const [ended, running] = alertHours(at('2026-03-30T08:20:00Z'), 'Europe/Berlin');
    expect(ended?.key).toBe('2026-03-30T09');
    expect([iso(ended?.start as Date), iso(ended?.end as Date)]).toEqual([
      '2026-03-30T07:00:00.000Z',
      '2026-03-30T08:00:00.000Z',
    ]);
    expect([running?.key, iso(running?.end as Date)]).toEqual(['2026-03-30T10', '2026-03-30T08:20:00.000Z']);
    const before = sameHourBefore(running as NonNullable<typeof running>, 'Europe/Berlin');
    expect(before.map((hour) => hour.key)).toEqual([
      '2026-03-29T10',
      '2026-03-28T10',
      '2026-03-27T10',
      '2026-03-26T10',
      '2026-03-25T10',
      '2026-03-24T10',
      '2026-03-23T10',
    ]);
    // 10:00 on Sunday is on the summer clock, on Saturday on the winter one: each a whole hour.
    expect(iso(before[0]?.start as Date)).toBe('2026-03-29T08:00:00.000Z');
    expect(iso(before[1]?.start as Date)).toBe('2026-03-28T09:00:00.000Z');
    expect(iso(before[1]?.end as Date)).toBe('2026-03-28T10:00:00.000Z');
  });

  it('calls an hour a spike above the multiple of the median of the same hours, never of less than 10 visits', () => {
    // A quiet site: the usual level is the floor, so three times it is 30 visits.
    expect(usualLevel([0, 0, 3, 4, 5, 100, 2])).toBe(10);
    expect(isSpike(30, [0, 0, 3, 4, 5, 100, 2], 3)).toBe(false);
    expect(isSpike(31, [0, 0, 3, 4, 5, 100, 2], 3)).toBe(true);
    // A busy one: one odd day (300) does not move the median (105).
    expect(usualLevel([100, 120, 90, 110, 105, 95, 300])).toBe(105);
    expect(isSpike(315, [100, 120, 90, 110, 105, 95, 300], 3)).toBe(false);
    expect(isSpike(316, [100, 120, 90, 110, 105, 95, 300], 3)).toBe(true);
    expect(usualLevel([40, 20, 30, 50])).toBe(35);
    expect(usualLevel([])).toBe(10);
  });
});
