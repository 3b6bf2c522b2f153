// The site's palette from one brand colour (decision 203). The colour is the accent: links, the
// main buttons' background and the focus of the brand. The light theme uses it as given, provided
// links in it read on the page's surfaces (WCAG AA: 4.5:1); the dark theme lightens it until it
// reads on the dark surfaces. The text on an accent button is white or near-black, whichever reads.

/** The surfaces links sit on, per theme (tokens.css): the page and the raised panels. */
const LIGHT_SURFACES = ['#ffffff', '#f4f6fa'];
const DARK_SURFACES = ['#12151b', '#1c2029'];
const LIGHT_TEXT = '#ffffff';
const DARK_TEXT = '#0b1220';
/** WCAG 2.2 AA for normal text. */
export const MIN_CONTRAST = 4.5;

export const isHexColour = (value: string) => /^#[0-9a-fA-F]{6}$/.test(value);

function channels(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((value) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The WCAG contrast ratio of two colours, 1 to 21. */
export function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

const hex = (rgb: number[]) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

/** The accent's weakest contrast with the light theme's surfaces: what a link in it reads at. */
export const linkContrast = (accent: string) => Math.min(...LIGHT_SURFACES.map((surface) => contrast(accent, surface)));

/** The text colour that reads best on `background`. */
const textOn = (background: string) =>
  contrast(background, LIGHT_TEXT) >= contrast(background, DARK_TEXT) ? LIGHT_TEXT : DARK_TEXT;

/** The accent mixed towards white until it reads on the dark surfaces. */
function darkAccent(accent: string): string {
  const rgb = channels(accent);
  for (let share = 0; share <= 1; share += 0.05) {
    const mixed = hex(rgb.map((c) => c + (255 - c) * share));
    if (Math.min(...DARK_SURFACES.map((surface) => contrast(mixed, surface))) >= MIN_CONTRAST) return mixed;
  }
  return '#ffffff';
}

export interface BrandPalette {
  light: { accent: string; accentText: string };
  dark: { accent: string; accentText: string };
}

/** The palette, or null for a colour links would not read in (see `linkContrast`). */
export function brandPalette(accent: string): BrandPalette | null {
  if (!isHexColour(accent) || linkContrast(accent) < MIN_CONTRAST) return null;
  const light = { accent: accent.toLowerCase(), accentText: textOn(accent) };
  const dark = darkAccent(accent);
  // A colour dark enough for links on white always carries white or near-black text at 4.5:1.
  return { light, dark: { accent: dark, accentText: textOn(dark) } };
}

/** The tokens the palette sets, as the inline style a page carries after its stylesheets. */
export function brandPaletteCss(palette: BrandPalette): string {
  const tokens = (part: BrandPalette['light']) => `--accent:${part.accent};--accent-text:${part.accentText}`;
  return `:root{${tokens(palette.light)}}@media (prefers-color-scheme:dark){:root{${tokens(palette.dark)}}}`;
}

/** The inline style of a site's brand colour, or "" without one (the design's own palette). */
export function brandCss(site: { appearance?: { accent: string | null } }): string {
  const accent = site.appearance?.accent;
  const palette = accent ? brandPalette(accent) : null;
  return palette ? brandPaletteCss(palette) : '';
}
