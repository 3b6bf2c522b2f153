import { describe, expect, it } from 'vitest';
import { isPlaceholderText, placeholdersOf, pluralForms, textProblem, textStatus } from './text-rules.ts';
import { flattenTexts, withTexts } from './text-tree.ts';

describe('a translated text keeps what the English one needs', () => {
  it('refuses a placeholder left out, misspelt or added', () => {
    const english = 'Welcome to {{siteName}}';
    expect(textProblem('hero.title', 'th', 'ยินดีต้อนรับสู่ {{siteName}}', english)).toBeNull();
    expect(textProblem('hero.title', 'th', 'ยินดีต้อนรับ', english)).toBe('TEXT_PLACEHOLDERS');
    expect(textProblem('hero.title', 'fr', 'Bienvenue sur {{siteNam}}', english)).toBe('TEXT_PLACEHOLDERS');
    expect(textProblem('hero.title', 'de', 'Willkommen {{siteName}} {{domain}}', english)).toBe('TEXT_PLACEHOLDERS');
    expect(placeholdersOf('{{ a }} and {{b}} and {{a}}')).toEqual(['a', 'b']);
  });

  it('lets a singular form leave the count out, never another placeholder', () => {
    expect(textProblem('items_one', 'en', 'One message', '{{count}} messages')).toBeNull();
    expect(textProblem('items_other', 'de', '{{count}} Nachrichten', '{{count}} messages')).toBeNull();
    expect(textProblem('items_other', 'de', 'Nachrichten', '{{count}} messages')).toBe('TEXT_PLACEHOLDERS');
  });

  it('refuses a plural form the language does not use', () => {
    expect(pluralForms('th')).toEqual(['other']);
    expect(textProblem('items_one', 'th', 'ข้อความ', '{{count}} message')).toBe('TEXT_PLURAL_FORM');
    expect(textProblem('items_other', 'th', '{{count}} ข้อความ', '{{count}} messages')).toBeNull();
  });

  it('keeps the tags of the English text', () => {
    const english = 'Read our <1>privacy policy</1>.';
    expect(textProblem('note', 'nl', 'Lees ons <1>privacybeleid</1>.', english)).toBeNull();
    expect(textProblem('note', 'nl', 'Lees ons privacybeleid.', english)).toBe('TEXT_MARKUP');
    expect(textProblem('note', 'nl', 'Lees ons <2>privacybeleid</2>.', english)).toBe('TEXT_MARKUP');
  });
});

describe('the status of a text', () => {
  it('is missing when empty, review when the English changed since, else done', () => {
    expect(textStatus('it', ' ', 'Hello', 'Hello')).toBe('missing');
    expect(textStatus('it', 'Ciao', 'Hello there', 'Hello')).toBe('review');
    expect(textStatus('it', 'Ciao', 'Hello', 'Hello')).toBe('done');
    expect(textStatus('en', 'Hello there', 'Hello there', 'Hello')).toBe('done');
  });

  it('knows a stand-in text of the release', () => {
    expect(isPlaceholderText('[Who we are, in one sentence.]')).toBe(true);
    expect(isPlaceholderText('We are [almost] ready')).toBe(false);
  });
});

describe('a namespace as a tree of texts', () => {
  const tree = { meta: { title: 'Home' }, offers: { items: [{ title: 'One' }, { title: 'Two' }] } };

  it('names every text by its dotted path, arrays included', () => {
    expect([...flattenTexts(tree)]).toEqual([
      ['meta.title', 'Home'],
      ['offers.items.0.title', 'One'],
      ['offers.items.1.title', 'Two'],
    ]);
  });

  it('writes texts into a copy without changing its shape or the original', () => {
    const edited = withTexts(
      tree,
      new Map([
        ['offers.items.1.title', 'Deux'],
        ['meta.unknown', 'x'],
        ['meta', 'not a text'],
      ]),
    );
    expect(edited).toEqual({ meta: { title: 'Home' }, offers: { items: [{ title: 'One' }, { title: 'Deux' }] } });
    expect(Array.isArray((edited.offers as { items: unknown }).items)).toBe(true);
    expect(tree.offers.items[1]?.title).toBe('Two');
  });
});
