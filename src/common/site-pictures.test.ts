import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG, type SiteConfig } from './site-config.ts';
import { configForPage, type Picture, pageConfigs, pictureShownOn } from './site-pictures.ts';

const picture = (name: string): Picture => ({
  sources: [{ type: 'image/avif', srcset: `/assets/pictures/${name}-480.avif 480w` }],
  src: `/assets/pictures/${name}-960.jpg`,
  width: 960,
  height: 640,
  alt: { en: name },
});
const logo = { path: '/assets/brand/logo.svg', width: 64, height: 64, alt: { en: 'Acme' } };
const site: SiteConfig = {
  ...DEFAULT_SITE_CONFIG,
  appearance: { accent: '#0f766e', logo, pictures: { home: picture('home'), about: picture('about') } },
};

describe('configForPage', () => {
  it('gives a page with a picture its own and not the other’s', () => {
    expect(configForPage(site, 'home').appearance).toEqual({
      accent: '#0f766e',
      logo,
      pictures: { home: picture('home') },
    });
    expect(configForPage(site, 'about').appearance?.pictures).toEqual({ about: picture('about') });
  });

  it('gives the other pages and the console no picture, and the rest of the configuration as it is', () => {
    for (const page of ['privacy', 'login', null] as const) {
      const config = configForPage(site, page);
      expect(config.appearance).toEqual({ accent: '#0f766e', logo });
      expect({ ...config, appearance: site.appearance }).toEqual(site);
    }
  });

  it('leaves a configuration without pictures as it is, and a page whose picture is not there without one', () => {
    expect(configForPage(DEFAULT_SITE_CONFIG, 'home')).toBe(DEFAULT_SITE_CONFIG);
    const aboutOnly: SiteConfig = {
      ...site,
      appearance: { accent: null, logo: null, pictures: { about: picture('a') } },
    };
    expect(configForPage(aboutOnly, 'home').appearance).toEqual({ accent: null, logo: null });
  });
});

describe('pageConfigs', () => {
  it('lists every configuration a page carries: none, home’s and about’s picture', () => {
    expect(pageConfigs(site).map((config) => Object.keys(config.appearance?.pictures ?? {}))).toEqual([
      [],
      ['home'],
      ['about'],
    ]);
    expect(pictureShownOn('about')).toBe('about');
    expect(pictureShownOn('contact')).toBeUndefined();
  });
});
