import { describe, expect, it } from 'vitest';
import { hoursAt, instantOf, type OfficeHours } from './office-hours.ts';

const WORKDAYS = [1, 2, 3, 4, 5].map(() => [{ from: '08:00', to: '17:00' }]);
const berlin: OfficeHours = { timeZone: 'Europe/Berlin', weekly: [...WORKDAYS, [], []], holidays: [] };
const at = (iso: string) => hoursAt(new Date(iso), berlin);
const iso = (date: Date | null) => date?.toISOString() ?? null;

describe('office hours', () => {
  it('is open within a span and says until when, in the team time zone', () => {
    // Monday 2026-11-30 10:00 in Berlin (UTC+1).
    const state = at('2026-11-30T09:00:00Z');
    expect(state.open).toBe(true);
    expect(iso(state.closesAt)).toBe('2026-11-30T16:00:00.000Z');
    expect(state.nextOpen).toBeNull();
  });

  it('is back on Monday at 08:00 after a weekend that moves the clocks forward', () => {
    // Friday 2026-03-27 17:30 CET; Sunday the 29th Berlin moves to CEST (UTC+2).
    const state = at('2026-03-27T16:30:00Z');
    expect(state.open).toBe(false);
    // 08:00 CEST is 06:00 UTC, not the 07:00 that the Friday's offset would give.
    expect(iso(state.nextOpen)).toBe('2026-03-30T06:00:00.000Z');
  });

  it('is back on Monday at 08:00 after a weekend that moves the clocks back', () => {
    // Friday 2026-10-23 18:00 CEST; Sunday the 25th Berlin returns to CET (UTC+1).
    const state = at('2026-10-23T16:00:00Z');
    expect(iso(state.nextOpen)).toBe('2026-10-26T07:00:00.000Z');
    // And the Monday closes at 17:00 CET.
    expect(iso(at('2026-10-26T08:00:00Z').closesAt)).toBe('2026-10-26T16:00:00.000Z');
  });

  it('skips holidays, which are days in the team time zone', () => {
    const withHoliday = { ...berlin, holidays: ['2026-04-06'] };
    // Easter Monday off: from Friday evening the team is back on Tuesday.
    expect(iso(hoursAt(new Date('2026-04-03T16:00:00Z'), withHoliday).nextOpen)).toBe('2026-04-07T06:00:00.000Z');
    // 00:30 on the holiday in Berlin is still the 5th in UTC: the day is Berlin's.
    expect(hoursAt(new Date('2026-04-05T22:30:00Z'), { ...withHoliday, weekly: allDay() }).open).toBe(false);
  });

  it('reads the hours of a team in Thai local time (UTC+7, no summer time)', () => {
    const bangkok: OfficeHours = {
      timeZone: 'Asia/Bangkok',
      weekly: [...[1, 2, 3, 4, 5].map(() => [{ from: '09:00', to: '18:00' }]), [{ from: '10:00', to: '12:00' }], []],
      holidays: ['2026-12-05'],
    };
    // Friday 2026-12-04 19:00 in Bangkok; Saturday the 5th is a holiday: back Monday 09:00 (02:00 UTC).
    expect(iso(hoursAt(new Date('2026-12-04T12:00:00Z'), bangkok).nextOpen)).toBe('2026-12-07T02:00:00.000Z');
    // Saturday 2026-11-28 11:00 in Bangkok is within its short Saturday.
    const saturday = hoursAt(new Date('2026-11-28T04:00:00Z'), bangkok);
    expect([saturday.open, iso(saturday.closesAt)]).toEqual([true, '2026-11-28T05:00:00.000Z']);
  });

  it('joins spans that meet at midnight into one opening', () => {
    const state = hoursAt(new Date('2026-11-30T23:30:00Z'), { ...berlin, weekly: allDay() });
    expect(state.open).toBe(true);
    expect(state.closesAt?.getTime()).toBeGreaterThan(new Date('2026-12-14T00:00:00Z').getTime());
  });

  it('has no next opening when no day has hours', () => {
    expect(hoursAt(new Date(), { ...berlin, weekly: [[], [], [], [], [], [], []] })).toEqual({
      open: false,
      closesAt: null,
      nextOpen: null,
    });
  });

  it('places a time the spring change skips where the clocks show it', () => {
    // 02:30 on 2026-03-29 does not exist in Berlin: clocks go from 02:00 CET to 03:00 CEST.
    expect(new Date(instantOf(Date.UTC(2026, 2, 29, 2, 30), 'Europe/Berlin')).toISOString()).toBe(
      '2026-03-29T01:30:00.000Z',
    );
    // 02:30 on 2026-10-25 happens twice: the first one (CEST).
    expect(new Date(instantOf(Date.UTC(2026, 9, 25, 2, 30), 'Europe/Berlin')).toISOString()).toBe(
      '2026-10-25T00:30:00.000Z',
    );
  });
});

function allDay() {
  return [0, 1, 2, 3, 4, 5, 6].map(() => [{ from: '00:00', to: '24:00' }]);
}
