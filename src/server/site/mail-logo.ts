// The logo as mail shows it: a PNG (mail clients show no SVG), attached to each mail rather than
// fetched from the site, which most clients block until the reader allows remote images.
import type { LogoFile } from './live-pages.ts';

/** The logo's height in a mail, in CSS pixels; drawn at twice that for dense screens. */
const MAIL_LOGO_HEIGHT = 40;
const MAIL_LOGO_MAX_WIDTH = 240;
const DENSITY = 2;

export interface MailLogoImage {
  png: Uint8Array;
  /** The size it is shown at. */
  width: number;
  height: number;
}

export async function mailLogoFrom(logo: LogoFile): Promise<MailLogoImage> {
  const { renderAsync } = await import('@resvg/resvg-js');
  const width = Math.min(MAIL_LOGO_MAX_WIDTH, Math.round((logo.width / logo.height) * MAIL_LOGO_HEIGHT));
  const [w, h] = [width * DENSITY, MAIL_LOGO_HEIGHT * DENSITY];
  const href = `data:${logo.type};base64,${Buffer.from(logo.body).toString('base64')}`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><image href="${href}" width="${w}" height="${h}" preserveAspectRatio="xMinYMid meet"/></svg>`;
  const png = (await renderAsync(svg, { fitTo: { mode: 'width', value: w } })).asPng();
  return { png, width, height: MAIL_LOGO_HEIGHT };
}
