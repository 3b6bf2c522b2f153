// The picture a link preview shows (Open Graph, Twitter card): the page's title set large on the
// brand colour, the site name above it and the domain below, 1200×630 as the previews expect.
// Drawn as SVG by hand and rendered by resvg, which shapes text with HarfBuzz's rules, so Thai
// vowels and tone marks sit where they belong (decision 190).
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Resvg, renderAsync } from '@resvg/resvg-js';
import { escapeHtml } from '#common/html.ts';
import type { ShareCard, ShareImage } from '#common/share-card.ts';

export const SHARE_IMAGE_WIDTH = 1200;
export const SHARE_IMAGE_HEIGHT = 630;
/** Where the images go in the build: under /assets/, so both the Node server and nginx cache them for a year. */
export const SHARE_IMAGE_FOLDER = 'assets/share';

const require = createRequire(import.meta.url);
/** Bold Noto Sans for Latin, Noto Sans Thai for Thai (both OFL); resvg falls back from one to the other per character. */
const FONT_FILES = [
  require.resolve('@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf'),
  require.resolve('@expo-google-fonts/noto-sans-thai/700Bold/NotoSansThai_700Bold.ttf'),
];
const FONT_FAMILY = 'Noto Sans, Noto Sans Thai';
const RESVG_OPTIONS = { font: { fontFiles: FONT_FILES, loadSystemFonts: false, defaultFontFamily: 'Noto Sans' } };
/**
 * What an image's name is made from besides its card: the drawing's version (raise it with any
 * change below) and the renderer's and fonts' versions, so that a name always follows what it shows.
 */
const RENDERER = [
  2,
  ...['@resvg/resvg-js', '@expo-google-fonts/noto-sans', '@expo-google-fonts/noto-sans-thai'].map(
    (name) => (require(`${name}/package.json`) as { version: string }).version,
  ),
];

const MARGIN = 80;
const TEXT_WIDTH = SHARE_IMAGE_WIDTH - 2 * MARGIN;
/** Title sizes tried in turn, each with the lines it may take, until the title fits. */
const SMALLEST_FIT = { size: 48, lines: 5 };
const TITLE_FITS = [{ size: 72, lines: 3 }, { size: 60, lines: 4 }, SMALLEST_FIT];
const LINE_HEIGHT = 1.3;
/** Noto Sans's space is 260 units of 1000; a space has no ink for resvg to measure. */
const SPACE_EM = 0.26;

/** The colours of the brand: the accent and the text drawn on it (tokens.css). */
export interface BrandColours {
  accent: string;
  accentText: string;
}

/** Reads the light theme's accent and its text colour from the design tokens. */
export function brandColours(tokensCss: string): BrandColours {
  const token = (name: string) => {
    const value = tokensCss.match(new RegExp(`--${name}:\\s*(#[0-9a-fA-F]{3,8})\\s*;`))?.[1];
    if (!value) throw new Error(`tokens.css defines no --${name} colour`);
    return value;
  };
  return { accent: token('accent'), accentText: token('accent-text') };
}

/**
 * Thai SARA AM (ำ) as NIKHAHIT and SARA AA, NIKHAHIT before any tone mark: the order HarfBuzz's
 * Thai shaper makes of it. resvg keeps ำ whole and gives it no advance, so the next letter is
 * drawn over it ("สำหรับ"); the decomposed letters it places right (น้ำ keeps its tone mark above).
 */
export const thaiSaraAmDecomposed = (text: string): string =>
  text.replace(/([\u0E48-\u0E4B]*)\u0E33/g, '\u0E4D$1\u0E32');

/** Ink width of `text` at `size` px, laid out by resvg with the real fonts once per text at 100 px. */
const widths = new Map<string, number>();
export function textWidth(text: string, size: number): number {
  if (!text.trim()) return text.length * SPACE_EM * size;
  let width = widths.get(text);
  if (width === undefined) {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="200"><text x="0" y="150" font-family="${FONT_FAMILY}" font-weight="700" font-size="100">${escapeHtml(thaiSaraAmDecomposed(text))}</text></svg>`;
    width = new Resvg(svg, RESVG_OPTIONS).getBBox()?.width ?? 0;
    widths.set(text, width);
  }
  return (width * size) / 100;
}

/**
 * The title broken into lines no wider than the text area at `size`, at word boundaries as the
 * language has them (Thai writes no spaces between words; Intl.Segmenter knows where they end).
 * Null when it needs more than `maxLines`.
 */
export function wrapTitle(title: string, language: string, size: number, maxLines: number): string[] | null {
  const words = [...new Intl.Segmenter(language, { granularity: 'word' }).segment(title)].map((s) => s.segment);
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const candidate = line + word;
    if (line.trim() && textWidth(candidate.trimEnd(), size) > TEXT_WIDTH) {
      lines.push(line.trim());
      line = word.trimStart();
    } else line = candidate;
  }
  if (line.trim()) lines.push(line.trim());
  return lines.length <= maxLines ? lines : null;
}

/** The card as SVG: what is rendered, and what names the image. */
/** The site's name at the top, after its logo when there is one. */
function siteLine(
  card: ShareCard,
  logoHref: string | undefined,
  text: (x: number, y: number, size: number, content: string) => string,
): string[] {
  if (!card.logo || !logoHref) return [text(MARGIN, 118, 40, card.siteName)];
  const width = Math.min(LOGO_MAX_WIDTH, Math.round((card.logo.width / card.logo.height) * LOGO_HEIGHT));
  const top = 118 - LOGO_HEIGHT + 12;
  return [
    // The logo is made for the site's light header, and is often in the very colour the card is
    // filled with: it sits on a plate of the page's background.
    `<rect x="${MARGIN - LOGO_PLATE}" y="${top - LOGO_PLATE}" width="${width + 2 * LOGO_PLATE}" height="${LOGO_HEIGHT + 2 * LOGO_PLATE}" rx="${LOGO_PLATE}" fill="${LOGO_PLATE_COLOUR}"/>`,
    `<image href="${escapeHtml(logoHref)}" x="${MARGIN}" y="${top}" width="${width}" height="${LOGO_HEIGHT}" preserveAspectRatio="xMinYMid meet"/>`,
    text(MARGIN + width + LOGO_PLATE + 24, 118, 40, card.siteName),
  ];
}

/** How tall the logo is drawn above the title, in pixels; as wide as its proportions make it, up to LOGO_MAX_WIDTH. */
const LOGO_HEIGHT = 64;
const LOGO_MAX_WIDTH = 420;
/** The margin of the plate behind the logo, in pixels, and its colour (the light theme's page background). */
export const LOGO_PLATE = 12;
export const LOGO_PLATE_COLOUR = '#ffffff';

export function shareSvg(card: ShareCard, colours: BrandColours, logoHref?: string): string {
  const fit = TITLE_FITS.map(({ size, lines }) => ({
    size,
    lines: wrapTitle(card.title, card.language, size, lines),
  })).find((candidate) => candidate.lines) ?? {
    // Longer than any fit allows: the smallest size, cut after its last line.
    size: SMALLEST_FIT.size,
    lines: wrapTitle(card.title, card.language, SMALLEST_FIT.size, Number.POSITIVE_INFINITY)?.slice(
      0,
      SMALLEST_FIT.lines,
    ),
  };
  const lines = fit.lines ?? [];
  const step = fit.size * LINE_HEIGHT;
  // The title's block is centred between the site name and the domain.
  const top = 330 - (step * lines.length) / 2 + fit.size * 0.95;
  const text = (x: number, y: number, size: number, content: string, extra = '') =>
    `<text x="${x}" y="${Math.round(y)}" font-size="${size}"${extra}>${escapeHtml(thaiSaraAmDecomposed(content))}</text>`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SHARE_IMAGE_WIDTH}" height="${SHARE_IMAGE_HEIGHT}">`,
    `<rect width="100%" height="100%" fill="${colours.accent}"/>`,
    `<g fill="${colours.accentText}" font-family="${FONT_FAMILY}" font-weight="700" xml:lang="${escapeHtml(card.language)}">`,
    ...siteLine(card, logoHref, text),
    ...lines.map((line, index) => text(MARGIN, top + index * step, fit.size, line)),
    `<rect x="${MARGIN}" y="520" width="96" height="6" rx="3"/>`,
    text(MARGIN, 580, 32, card.domain, ' fill-opacity="0.85"'),
    '</g>',
    '</svg>',
  ].join('');
}

/**
 * Renders each card once under a name made from what it shows, hands it to `save` (the build
 * writes it into the client folder, a running server into what it serves), and says where it is.
 * Two pages whose cards are the same share the image. Images already made with the same name are
 * taken from `cacheDir` rather than rendered again.
 */
export function shareImageWriter(options: {
  save: (urlPath: string, png: Uint8Array) => Promise<void> | void;
  cacheDir: string;
  colours: BrandColours;
  /**
   * Answer with the image's address at once and hand its drawing to `drawLater`, which a running
   * server calls on the image's first request: after a brand change every page names a new image,
   * few of them are ever fetched, and each instance would otherwise spend seconds drawing them all.
   * The build draws each before it goes on.
   */
  drawLater?: (urlPath: string, draw: () => Promise<ShareImage>) => void;
  /** The bytes of the logo a card names (a running server has them; the build has no logo). */
  logoData?: (urlPath: string) => Uint8Array | undefined;
}) {
  const made = new Map<string, Promise<ShareImage>>();
  const { save, cacheDir, colours, drawLater, logoData } = options;
  const logoHref = (card: ShareCard) => {
    const data = card.logo && logoData?.(card.logo.path);
    if (!card.logo || !data) return undefined;
    const type = card.logo.path.endsWith('.svg') ? 'image/svg+xml' : 'image/png';
    return `data:${type};base64,${Buffer.from(data).toString('base64')}`;
  };

  async function make(card: ShareCard, name: string, urlPath: string): Promise<ShareImage> {
    const cached = path.join(cacheDir, name);
    const png = await readFile(cached).catch(async () => {
      const rendered = (await renderAsync(shareSvg(card, colours, logoHref(card)), RESVG_OPTIONS)).asPng();
      await mkdir(cacheDir, { recursive: true });
      await writeFile(cached, rendered);
      return rendered;
    });
    await save(urlPath, png);
    return { path: urlPath, width: SHARE_IMAGE_WIDTH, height: SHARE_IMAGE_HEIGHT };
  }

  return (card: ShareCard): Promise<ShareImage> => {
    const key = JSON.stringify([RENDERER, card, colours]);
    const name = `${createHash('sha256').update(key).digest('base64url').slice(0, 16)}.png`;
    const urlPath = `/${SHARE_IMAGE_FOLDER}/${name}`;
    const draw = () => {
      let image = made.get(name);
      if (!image) {
        image = make(card, name, urlPath);
        made.set(name, image);
        // A drawing that failed is tried again when the image is next asked for.
        image.catch(() => made.delete(name));
      }
      return image;
    };
    if (!drawLater) return draw();
    drawLater(urlPath, draw);
    return Promise.resolve({ path: urlPath, width: SHARE_IMAGE_WIDTH, height: SHARE_IMAGE_HEIGHT });
  };
}
