import { describe, expect, it } from 'vitest';
import { bestLanguage, directionOf, isLanguage } from './languages.ts';

describe('bestLanguage', () => {
  it('takes the first supported code, on its primary subtag', () => {
    expect(bestLanguage(['it'])).toBe('it');
    expect(bestLanguage(['es-ES', 'fr-CA', 'de'])).toBe('fr');
    expect(bestLanguage(['th_TH'])).toBe('th');
    expect(bestLanguage(['NL'])).toBe('nl');
  });

  it('falls back to en', () => {
    expect(bestLanguage([])).toBe('en');
    expect(bestLanguage(['es', 'pt-BR'])).toBe('en');
    expect(bestLanguage(['<script>'])).toBe('en');
  });
});

describe('directionOf', () => {
  it('writes the listed right-to-left languages right to left', () => {
    for (const language of ['ar', 'he', 'fa', 'ur', 'yi', 'ps', 'ckb', 'dv', 'ar-EG'])
      expect(directionOf(language)).toBe('rtl');
  });

  it('writes the offered languages left to right', () => {
    for (const language of ['en', 'it', 'th', 'fr', 'de', 'nl']) expect(directionOf(language)).toBe('ltr');
  });
});

describe('isLanguage', () => {
  it('accepts only the offered codes, exactly', () => {
    expect(isLanguage('en')).toBe(true);
    expect(isLanguage('EN')).toBe(false);
    expect(isLanguage('es')).toBe(false);
    expect(isLanguage(undefined)).toBe(false);
    expect(isLanguage('constructor')).toBe(false);
  });
});
