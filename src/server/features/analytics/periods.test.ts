import { describe, expect, it } from 'vitest';
import { periodOf } from './periods.ts';

const iso = (date: Date) => date.toISOString();

describe('analytics periods', () => {
  it('reads the last seven days in the site time zone, and compares with the same hours a week before', () => {
    // 12:00 in Rome (summer time since Sunday); the week began on the 25th, still in winter time.
    const period = periodOf({ period: '7d' }, 'Europe/Rome', new Date('2026-03-31T10:00:00Z'));
    expect(period).toMatchObject({ from: '2026-03-25', to: '2026-03-31', bucket: 'day' });
    expect(iso(period.start)).toBe('2026-03-24T23:00:00.000Z');
    expect(iso(period.end)).toBe('2026-03-31T10:00:00.000Z');
    expect(period.previous).toMatchObject({ from: '2026-03-18', to: '2026-03-24' });
    expect(iso(period.previous.start)).toBe('2026-03-17T23:00:00.000Z');
    // Tuesday 12:00 the week before, on the winter clock: the same wall-clock time, not 168 hours back.
    expect(iso(period.previous.end)).toBe('2026-03-24T11:00:00.000Z');
  });

  it('cuts today by the hour and compares with yesterday until the same time', () => {
    const period = periodOf({ period: 'today' }, 'Asia/Bangkok', new Date('2026-11-26T01:30:00Z'));
    expect(period).toMatchObject({ from: '2026-11-26', to: '2026-11-26', bucket: 'hour' });
    expect(iso(period.start)).toBe('2026-11-25T17:00:00.000Z');
    expect(iso(period.end)).toBe('2026-11-26T01:30:00.000Z');
    expect(period.previous).toMatchObject({ from: '2026-11-25', to: '2026-11-25' });
    expect(iso(period.previous.start)).toBe('2026-11-24T17:00:00.000Z');
    expect(iso(period.previous.end)).toBe('2026-11-25T01:30:00.000Z');
  });

  it('gives a day of the autumn change its 25 hours and a day of the spring change its 23', () => {
    const now = new Date('2026-12-01T12:00:00Z');
    const autumn = periodOf({ from: '2026-10-25', to: '2026-10-25' }, 'Europe/Berlin', now);
    expect(iso(autumn.start)).toBe('2026-10-24T22:00:00.000Z');
    expect(iso(autumn.end)).toBe('2026-10-25T23:00:00.000Z');
    expect(autumn.end.getTime() - autumn.start.getTime()).toBe(25 * 3600_000);
    const spring = periodOf({ from: '2026-03-29', to: '2026-03-29' }, 'Europe/Berlin', now);
    expect(spring.end.getTime() - spring.start.getTime()).toBe(23 * 3600_000);
    expect(iso(spring.previous.start)).toBe('2026-03-27T23:00:00.000Z');
    expect(iso(spring.previous.end)).toBe('2026-03-28T23:00:00.000Z');
  });

  it('compares a range of days that has ended with as many whole days just before', () => {
    const period = periodOf({ from: '2026-11-01', to: '2026-11-30' }, 'UTC', new Date('2026-12-15T00:00:00Z'));
    expect(period).toMatchObject({ from: '2026-11-01', to: '2026-11-30', bucket: 'day' });
    expect(iso(period.end)).toBe('2026-12-01T00:00:00.000Z');
    expect(period.previous).toMatchObject({ from: '2026-10-02', to: '2026-10-31' });
    expect(iso(period.previous.end)).toBe('2026-11-01T00:00:00.000Z');
  });

  it('answers a period in the future with nothing to count', () => {
    const period = periodOf({ from: '2027-01-01', to: '2027-01-07' }, 'UTC', new Date('2026-12-15T00:00:00Z'));
    expect(period.end.getTime()).toBe(period.start.getTime());
  });
});
