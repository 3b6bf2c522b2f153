import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG, type SiteConfig } from '#common/site-config.ts';
import type { Picture } from '#common/site-pictures.ts';
import { pagesShowingAlone } from './site-brand.ts';

const picture = (alt: string): Picture => ({
  sources: [],
  src: '/assets/pictures/a.jpg',
  width: 960,
  height: 640,
  alt: { en: alt },
});
const withLook = (appearance: SiteConfig['appearance']): SiteConfig => ({ ...DEFAULT_SITE_CONFIG, appearance });

describe('pagesShowingAlone', () => {
  it("names a picture's page when only that picture changed, the first one too", () => {
    const before = withLook({ accent: null, logo: null, pictures: { home: picture('A field') } });
    expect(
      pagesShowingAlone(before, withLook({ accent: null, logo: null, pictures: { home: picture('A meadow') } })),
    ).toEqual(['home']);
    expect(
      pagesShowingAlone(
        before,
        withLook({ accent: null, logo: null, pictures: { home: picture('A field'), about: picture('Us') } }),
      ),
    ).toEqual(['about']);
    expect(
      pagesShowingAlone(
        withLook(undefined),
        withLook({ accent: null, logo: null, pictures: { about: picture('Us') } }),
      ),
    ).toEqual(['about']);
    expect(pagesShowingAlone(before, withLook(undefined))).toEqual(['home']);
  });

  it('names none when the brand changed too, which every page shows', () => {
    const before = withLook({ accent: null, logo: null, pictures: { home: picture('A field') } });
    expect(
      pagesShowingAlone(before, withLook({ accent: '#0f766e', logo: null, pictures: { home: picture('A meadow') } })),
    ).toEqual([]);
    expect(pagesShowingAlone(before, { ...before, brand: { ...before.brand, siteName: 'Another' } })).toEqual([]);
  });
});
