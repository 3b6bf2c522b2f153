import { createHash } from 'node:crypto';
import type { ErrorCode } from '#common/error-codes.ts';
import type { LOGO_TYPES } from '#common/site-brand.ts';

export type LogoType = (typeof LOGO_TYPES)[number];

/** How tall the header shows a logo, in CSS pixels (layout.css, `.brand__logo`: 2.5rem). */
const SHOWN_HEIGHT = 40;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/**
 * What an SVG logo must not hold: anything that runs (scripts, event handlers, javascript: links),
 * embeds another document, or fetches another file (an href other than to itself or an inline
 * picture). A browser runs none of it in an <img>, and the file is served with a policy that forbids
 * it; a logo that needs it is refused all the same, so no such file is ever served.
 */
const UNSAFE_SVG =
  /<script|<foreignObject|<iframe|<embed|<object|<!ENTITY|<!DOCTYPE|\son[a-z]+\s*=|javascript:|@import|url\(\s*['"]?(?!#)|(?:xlink:)?href\s*=\s*["']\s*(?!#|data:image\/(?:png|jpeg|gif|webp);)/i;

export interface CheckedLogo {
  type: LogoType;
  /** Its size as the header shows it, keeping its proportions. */
  width: number;
  height: number;
}

/** The size an SVG says it has: its width and height, or its viewBox. */
function svgSize(svg: string): { width: number; height: number } | null {
  const root = /<svg\b[^>]*>/i.exec(svg)?.[0];
  if (!root) return null;
  const attribute = (name: string) => new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`, 'i').exec(root)?.[1];
  const viewBox = attribute('viewBox')
    ?.trim()
    .split(/[\s,]+/)
    .map(Number);
  const length = (value: string | undefined) =>
    value && /^\d+(\.\d+)?(px)?$/.test(value.trim()) ? Number.parseFloat(value) : NaN;
  const width = length(attribute('width'));
  const height = length(attribute('height'));
  if (width > 0 && height > 0) return { width, height };
  if (viewBox?.length === 4 && (viewBox[2] ?? 0) > 0 && (viewBox[3] ?? 0) > 0) {
    return { width: viewBox[2] as number, height: viewBox[3] as number };
  }
  return null;
}

/** Reads an uploaded logo: its kind, and its size in the header; or why it cannot be one. */
export function checkLogo(contentType: string, body: Uint8Array): CheckedLogo | { problem: ErrorCode } {
  const type = contentType.split(';')[0]?.trim().toLowerCase();
  const data = Buffer.from(body);
  let size: { width: number; height: number } | null = null;
  if (type === 'image/png') {
    if (data.length < 24 || !data.subarray(0, 8).equals(PNG_SIGNATURE)) return { problem: 'LOGO_NOT_IMAGE' };
    size = { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
  } else if (type === 'image/svg+xml') {
    const svg = data.toString('utf8');
    if (!/<svg\b/i.test(svg)) return { problem: 'LOGO_NOT_IMAGE' };
    if (UNSAFE_SVG.test(svg)) return { problem: 'LOGO_UNSAFE' };
    size = svgSize(svg);
  } else {
    return { problem: 'LOGO_NOT_IMAGE' };
  }
  if (!size || size.width <= 0 || size.height <= 0 || size.width > 8192 || size.height > 8192) {
    return { problem: 'LOGO_NOT_IMAGE' };
  }
  return {
    type,
    width: Math.max(1, Math.round((size.width / size.height) * SHOWN_HEIGHT)),
    height: SHOWN_HEIGHT,
  };
}

/** Where a logo is served: under /assets/, named by its content, so it is cached for a year. */
export function logoPath(type: LogoType, body: Uint8Array): string {
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 16);
  return `/assets/brand/logo-${hash}.${type === 'image/png' ? 'png' : 'svg'}`;
}
