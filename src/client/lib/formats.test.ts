import { afterEach, describe, expect, it } from 'vitest';
import { adoptFormatted, countryName, formatDate, formatDays, formatNumber, takeFormatted } from './formats.ts';

afterEach(() => {
  takeFormatted();
});

describe('formats', () => {
  it('writes periods, dates, countries and numbers as the language does', () => {
    expect(formatDays('en', 730)).toBe('2 years');
    expect(formatDays('de', 395)).toBe('395 Tage');
    expect(formatDate('en', '2026-11-23')).toBe('November 23, 2026');
    expect(formatDate('th', '2026-11-23')).toContain('2569');
    expect(countryName('fr', 'de')).toBe('Allemagne');
    expect(countryName('en', 'not a country')).toBe('not a country');
    expect(formatNumber('de', 5000)).toBe('5.000');
  });

  it('hands what a render formatted to the prerender, once', () => {
    formatDays('it', 365);
    formatNumber('en', 5000);
    expect(takeFormatted()).toEqual({ 'year it 1': '1 anno', 'number en 5000': '5,000' });
    expect(takeFormatted()).toEqual({});
  });

  it('uses the strings a prerendered page carries, without formatting them again', () => {
    adoptFormatted({ 'year nl 2': 'twee jaar (van de server)', 'date nl 2026-11-23': 23 as unknown as string });
    expect(formatDays('nl', 730)).toBe('twee jaar (van de server)');
    // Not a string: ignored, formatted here instead.
    expect(formatDate('nl', '2026-11-23')).toBe('23 november 2026');
    adoptFormatted(undefined);
  });
});
