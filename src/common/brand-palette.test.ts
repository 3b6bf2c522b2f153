import { describe, expect, it } from 'vitest';
import { brandPalette, brandPaletteCss, contrast, linkContrast, MIN_CONTRAST } from './brand-palette.ts';

describe('the palette of a brand colour', () => {
  it('measures contrast as WCAG does', () => {
    expect(contrast('#ffffff', '#000000')).toBeCloseTo(21, 5);
    expect(contrast('#1d4ed8', '#ffffff')).toBeCloseTo(6.7, 1);
  });

  it('keeps a dark colour for the light theme and lightens it for the dark one', () => {
    const palette = brandPalette('#0B6E4F');
    expect(palette?.light).toEqual({ accent: '#0b6e4f', accentText: '#ffffff' });
    const dark = palette?.dark.accent ?? '';
    expect(contrast(dark, '#1c2029')).toBeGreaterThanOrEqual(MIN_CONTRAST);
    expect(contrast(dark, palette?.dark.accentText ?? '')).toBeGreaterThanOrEqual(MIN_CONTRAST);
    expect(brandPaletteCss(palette ?? ({} as never))).toContain('--accent:#0b6e4f');
  });

  it('refuses a colour links would not read in, and what is not a colour', () => {
    expect(linkContrast('#f5c518')).toBeLessThan(MIN_CONTRAST);
    expect(brandPalette('#f5c518')).toBeNull();
    expect(brandPalette('red')).toBeNull();
    expect(brandPalette('#12345')).toBeNull();
  });
});
