import { describe, expect, it } from 'vitest';
import type { StatusCounts, TextEntry, TextsOverview } from '#common/site-texts.ts';
import {
  countsPerLanguage,
  filterTexts,
  groupTexts,
  pagesShowing,
  placeholderTarget,
  readTextsQuery,
  textsQueryString,
} from './text-list.ts';

const text = (key: string, status: TextEntry['status'], fields: Partial<TextEntry> = {}): TextEntry => ({
  key,
  english: `English ${key}`,
  value: status === 'missing' ? '' : `Thai ${key}`,
  draft: null,
  status,
  edited: false,
  placeholders: [],
  ...fields,
});

const texts = [
  text('meta.title', 'done', { english: 'Welcome to {{siteName}}', placeholders: ['siteName'] }),
  text('hero.title', 'review'),
  text('hero.lead', 'missing', { draft: 'ร่างใหม่' }),
  text('offers.items.0.title', 'done'),
  text('hero.primary', 'done'),
];

describe('the texts listed', () => {
  it('are all of them, those still to do, or those of one state', () => {
    const keys = (show: Parameters<typeof filterTexts>[1]) => filterTexts(texts, show).map((entry) => entry.key);
    expect(keys('all')).toHaveLength(5);
    expect(keys('open')).toEqual(['hero.title', 'hero.lead']);
    expect(keys('missing')).toEqual(['hero.lead']);
    expect(keys('review')).toEqual(['hero.title']);
  });

  it('are found by key, English text, published text or draft, whatever the case', () => {
    const found = (search: string) => filterTexts(texts, 'all', search).map((entry) => entry.key);
    expect(found('OFFERS')).toEqual(['offers.items.0.title']);
    expect(found('welcome')).toEqual(['meta.title']);
    expect(found('Thai hero.title')).toEqual(['hero.title']);
    expect(found('ร่างใหม่')).toEqual(['hero.lead']);
    expect(found('  ')).toHaveLength(5);
    expect(filterTexts(texts, 'open', 'lead').map((entry) => entry.key)).toEqual(['hero.lead']);
  });

  it('come in groups by the first part of the key, each group where its first text was', () => {
    expect(groupTexts(texts).map(({ group, texts: entries }) => [group, entries.map((entry) => entry.key)])).toEqual([
      ['meta', ['meta.title']],
      ['hero', ['hero.title', 'hero.lead', 'hero.primary']],
      ['offers', ['offers.items.0.title']],
    ]);
    expect(groupTexts([])).toEqual([]);
  });
});

describe('the texts page address', () => {
  it('reads the language, the filter and the search, with defaults for what is missing or wrong', () => {
    expect(readTextsQuery(new URLSearchParams('language=th&show=open&q=%20title%20'), 'en')).toEqual({
      language: 'th',
      show: 'open',
      search: 'title',
    });
    expect(readTextsQuery(new URLSearchParams('language=xx&show=everything'), 'de')).toEqual({
      language: 'de',
      show: 'all',
      search: '',
    });
  });

  it('writes only what differs from the defaults, and reads back what it wrote', () => {
    expect(textsQueryString({ language: 'th', show: 'all', search: '' })).toBe('?language=th');
    const choices = { language: 'fr', show: 'review', search: 'a&b' } as const;
    expect(textsQueryString(choices)).toBe('?language=fr&show=review&q=a%26b');
    expect(readTextsQuery(new URLSearchParams(textsQueryString(choices)), 'en')).toEqual(choices);
  });
});

describe('the overview', () => {
  const counts = (missing: number, review: number, done: number): StatusCounts => ({ missing, review, done });
  const perLanguage = (th: StatusCounts) => ({
    en: counts(0, 0, 10),
    it: counts(0, 0, 10),
    th,
    fr: counts(0, 0, 10),
    de: counts(0, 0, 10),
    nl: counts(1, 0, 9),
  });
  const overview: TextsOverview = {
    namespaces: [
      { namespace: 'common', counts: perLanguage(counts(1, 2, 7)) },
      { namespace: 'home', counts: perLanguage(counts(3, 0, 7)) },
    ],
    pages: [
      { page: 'home', namespaces: ['common', 'home'], counts: perLanguage(counts(4, 2, 14)) },
      { page: 'about', namespaces: ['common', 'about', 'legal'], counts: perLanguage(counts(0, 0, 20)) },
    ],
    drafts: 2,
    placeholders: [],
  };

  it('adds up each language over the namespaces', () => {
    const totals = countsPerLanguage(overview);
    expect(totals.th).toEqual(counts(4, 2, 14));
    expect(totals.en).toEqual(counts(0, 0, 20));
    expect(totals.nl).toEqual(counts(2, 0, 18));
    expect(countsPerLanguage({ namespaces: [], pages: [], drafts: 0, placeholders: [] }).th).toEqual(counts(0, 0, 0));
  });

  it('names the pages that show a namespace, for its previews', () => {
    expect(pagesShowing(overview, 'common')).toEqual(['home', 'about']);
    expect(pagesShowing(overview, 'home')).toEqual(['home']);
    expect(pagesShowing(overview, 'errors')).toEqual([]);
  });
});

describe('a placeholder the server names', () => {
  it('leads to its text in its group, searched by key', () => {
    expect(placeholderTarget('home:hero.lead', 'th')).toEqual({ namespace: 'home', query: '?language=th&q=hero.lead' });
    expect(placeholderTarget('legal:imprint.meta.title', 'de')).toEqual({
      namespace: 'legal',
      query: '?language=de&q=imprint.meta.title',
    });
  });

  it('leads nowhere when it is a fact of the configuration or names no group', () => {
    expect(placeholderTarget('config.json:company.email', 'en')).toBeNull();
    expect(placeholderTarget('console:title', 'en')).toBeNull();
    expect(placeholderTarget('hero.lead', 'en')).toBeNull();
    expect(placeholderTarget(':hero.lead', 'en')).toBeNull();
    expect(placeholderTarget('home:', 'en')).toBeNull();
  });
});
