import { describe, expect, it } from 'vitest';
import { criticalStylesheets, ENTRY, type Manifest, pageModuleKey, pageStylesheets } from './app-modules.ts';

// The shape Vite writes: the cookie policy imports the legal article's chunk and the entry, and a
// sheet that two chunks import (the consent's) is listed under both.
const manifest: Manifest = {
  [ENTRY]: { file: 'assets/entry.js', css: ['assets/entry.css'], imports: ['_i18next.js'] },
  '_i18next.js': { file: 'assets/i18next.js' },
  '_LegalArticle.js': { file: 'assets/LegalArticle.js', css: ['assets/LegalArticle.css'], imports: [ENTRY] },
  [pageModuleKey('cookies')]: {
    file: 'assets/CookiePage.js',
    css: ['assets/consent.css'],
    imports: [ENTRY, '_LegalArticle.js'],
  },
  'src/client/app/VisitorServices.tsx': { file: 'assets/VisitorServices.js', css: ['assets/consent.css'] },
  [pageModuleKey('contactSent')]: { file: 'assets/ContactSentPage.js', imports: [ENTRY] },
};

describe('the sheets a page paints with', () => {
  it('are the entry’s for every page', () => {
    expect(criticalStylesheets(manifest)).toEqual(['assets/entry.css']);
  });

  it('and those the page’s module brings beyond them, its own and its imports’, once each', () => {
    expect(pageStylesheets(manifest, 'cookies')).toEqual(['assets/consent.css', 'assets/LegalArticle.css']);
    expect(pageStylesheets(manifest, 'contactSent')).toEqual([]);
  });
});
