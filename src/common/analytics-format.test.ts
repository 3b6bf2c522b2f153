import { expect, it } from 'vitest';
import { changeOf, headlineFormat, languageNameFormat } from './analytics-format.ts';

it('compares with the period before only when it has something', () => {
  expect(changeOf(150, 100)).toBe(0.5);
  expect(changeOf(50, 100)).toBe(-0.5);
  expect(changeOf(10, 0)).toBeNull();
  expect(changeOf(null, 10)).toBeNull();
});

it('writes each headline number as its kind, in the reader’s language', () => {
  const en = headlineFormat('en');
  expect(en.measure('visitors', 12345)).toBe('12,345');
  expect(en.measure('viewsPerVisit', 2.345)).toBe('2.3');
  expect(en.measure('bounceRate', 0.416)).toBe('42%');
  expect(en.measure('visitSeconds', 78)).toMatch(/^1 min 18 sec$/);
  expect(en.measure('visits', null)).toBe('–');
  expect([en.change(0.25), en.change(-0.1), en.change(0)]).toEqual(['+25%', '-10%', '0%']);
  expect(headlineFormat('de').measure('visitors', 12345)).toBe('12.345');
});

it('names a site language in the reader’s language with its own name beside it', () => {
  expect(languageNameFormat('en')('th')).toBe('Thai (ไทย)');
  expect(languageNameFormat('th')('th')).toBe('ไทย');
  expect(languageNameFormat('en')('en')).toBe('English');
  expect(languageNameFormat('en')('xx')).toBe('xx');
});
