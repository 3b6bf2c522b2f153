import { describe, expect, it } from 'vitest';
import { replyDuration, timeOf, whenBack } from './when-back.ts';

describe('when the team is back, in the visitor language and local time', () => {
  // Friday 2026-03-27 18:00 in Berlin; the team (Europe/Berlin) is back Monday 08:00 CEST, after
  // the clocks moved forward on Sunday: 06:00 UTC.
  const friday = new Date('2026-03-27T17:00:00Z');
  const monday = '2026-03-30T06:00:00.000Z';

  it('names the weekday and the time as the visitor reads them', () => {
    expect(whenBack(monday, friday, 'en', 'Europe/Berlin')).toEqual({ key: 'backOn', day: 'Monday', time: '08:00 AM' });
    expect(whenBack(monday, friday, 'de', 'Europe/Berlin')).toEqual({ key: 'backOn', day: 'Montag', time: '08:00' });
  });

  it('gives the hour in Thai local time, in Thai', () => {
    // 06:00 UTC is 13:00 in Bangkok (UTC+7), on the same Monday.
    expect(whenBack(monday, friday, 'th', 'Asia/Bangkok')).toEqual({ key: 'backOn', day: 'วันจันทร์', time: '13:00' });
    // A visitor in Bangkok late on Sunday: the team is back "tomorrow" in Berlin, but it is Monday there already.
    expect(whenBack(monday, new Date('2026-03-29T18:00:00Z'), 'th', 'Asia/Bangkok').key).toBe('backToday');
    expect(whenBack(monday, new Date('2026-03-29T18:00:00Z'), 'de', 'Europe/Berlin').key).toBe('backTomorrow');
  });

  it('says today, tomorrow, a weekday, or a date further away', () => {
    expect(whenBack(monday, new Date('2026-03-30T05:00:00Z'), 'en', 'UTC').key).toBe('backToday');
    expect(whenBack(monday, new Date('2026-03-29T12:00:00Z'), 'en', 'UTC').key).toBe('backTomorrow');
    const far = whenBack('2026-04-13T06:00:00.000Z', friday, 'fr', 'Europe/Paris');
    expect(far).toEqual({ key: 'backOnDate', day: 'lundi 13 avril', time: '08:00' });
  });

  it('says until when in the visitor time zone', () => {
    expect(timeOf('2026-11-30T16:00:00Z', 'nl', 'Europe/Amsterdam')).toBe('17:00');
    expect(timeOf('2026-11-30T16:00:00Z', 'th', 'Asia/Bangkok')).toBe('23:00');
  });

  it('writes a typical reply time in whole minutes or hours of the language', () => {
    expect(replyDuration(30, 'en')).toBeNull();
    expect(replyDuration(170, 'en')).toBe('3 minutes');
    expect(replyDuration(60, 'it')).toBe('1 minuto');
    expect(replyDuration(300, 'th')).toBe('5 นาที');
    expect(replyDuration(7200, 'de')).toBe('2 Stunden');
  });
});
