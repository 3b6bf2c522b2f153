import { createHash } from 'node:crypto';
import type { Metadata, OutputInfo, Sharp } from 'sharp';
import type { ErrorCode } from '#common/error-codes.ts';
import {
  MIN_PICTURE_WIDTH,
  type PICTURE_TYPES,
  PICTURE_WIDTHS,
  type PictureSlot,
  type Picture as ShownPicture,
} from '#common/site-pictures.ts';

/** The formats a picture is served in: AVIF and WebP at each width, a JPEG at one to fall back on. */
export type VariantFormat = 'avif' | 'webp' | 'jpeg';

export interface Variant {
  format: VariantFormat;
  width: number;
  height: number;
  bytes: Uint8Array;
}

/** An upload made ready to serve: its size upright, and the files made from it. */
export interface MadePicture {
  type: (typeof PICTURE_TYPES)[number];
  width: number;
  height: number;
  /** Names its files: the same upload keeps its names, a new one gets new ones. */
  hash: string;
  variants: Variant[];
}

/**
 * Most pixels an upload may have: a 48-megapixel phone photo passes, a file that is small on disk
 * but unpacks into gigabytes (a decompression bomb) does not. Checked from the header, before decoding.
 */
const MAX_PIXELS = 50_000_000;
const FORMATS: Record<string, MadePicture['type']> = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };
/**
 * The encoders' settings, chosen by eye on photos at 960 px: AVIF at sharp's default effort (its
 * slower efforts cost seconds on two cores for a few per cent), WebP and the JPEG (mozjpeg) where
 * photos show no artefacts at arm's length.
 */
const ENCODE = {
  avif: (image: Sharp) => image.avif({ quality: 50, effort: 4 }),
  webp: (image: Sharp) => image.webp({ quality: 75, effort: 4 }),
  jpeg: (image: Sharp) => image.flatten({ background: '#ffffff' }).jpeg({ quality: 78, mozjpeg: true }),
};
/** The width the JPEG fallback has: browsers without AVIF or WebP are few and old. */
const FALLBACK_WIDTH = MIN_PICTURE_WIDTH;

/** The widths an original of `width` pixels is served at: the layout's, and its own when it falls between. */
export function servedWidths(width: number): number[] {
  const widths = PICTURE_WIDTHS.filter((each) => each <= width);
  const widest = Math.min(width, Math.max(...PICTURE_WIDTHS));
  return [...new Set([...widths, widest])];
}

/**
 * Reads an upload and makes the files the pages serve, or says why it cannot. The upload's kind is
 * what its bytes are, not what the request said. The files are drawn upright (a phone's EXIF
 * orientation applied) in sRGB and carry no metadata: a photo's EXIF can hold where and when it was
 * taken, and with which device.
 */
export async function makePicture(body: Uint8Array): Promise<MadePicture | { problem: ErrorCode; status: 400 | 413 }> {
  // libvips loads on the first upload, not at start: an instance that never takes one does not carry it (decision 174).
  const { default: sharp } = await import('sharp');
  const options = { limitInputPixels: MAX_PIXELS, failOn: 'error' as const };
  let header: Metadata;
  try {
    header = await sharp(body, options).metadata();
  } catch {
    return { problem: 'PICTURE_NOT_IMAGE', status: 400 };
  }
  const type = FORMATS[header.format];
  if (!type) return { problem: 'PICTURE_NOT_IMAGE', status: 400 };
  const { width, height } = header.autoOrient;
  if (width * height > MAX_PIXELS) return { problem: 'PICTURE_TOO_LARGE', status: 413 };
  if (width < MIN_PICTURE_WIDTH) return { problem: 'PICTURE_TOO_SMALL', status: 400 };

  // Decoded once, upright and at the widest size served; every file is encoded from these pixels.
  const widths = servedWidths(width);
  let base: { data: Buffer; info: OutputInfo };
  try {
    base = await sharp(body, options)
      .autoOrient()
      .resize({ width: Math.max(...widths) })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch {
    return { problem: 'PICTURE_NOT_IMAGE', status: 400 };
  }
  const pixels = () =>
    sharp(base.data, { raw: { width: base.info.width, height: base.info.height, channels: base.info.channels } });
  const encode = async (format: VariantFormat, at: number): Promise<Variant> => {
    const { data, info } = await ENCODE[format](pixels().resize({ width: at })).toBuffer({ resolveWithObject: true });
    return { format, width: info.width, height: info.height, bytes: new Uint8Array(data) };
  };
  const variants = await Promise.all([
    ...widths.flatMap((at) => [encode('avif', at), encode('webp', at)]),
    encode('jpeg', FALLBACK_WIDTH),
  ]);
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 16);
  return { type, width, height, hash, variants };
}

const EXTENSIONS: Record<VariantFormat, string> = { avif: 'avif', webp: 'webp', jpeg: 'jpg' };

/** Where a file of a picture is served: under /assets/, named by the upload's content, so cached for a year. */
export const variantPath = (slot: PictureSlot, hash: string, format: VariantFormat, width: number) =>
  `/assets/pictures/${slot}-${hash}-${width}.${EXTENSIONS[format]}`;

/** A stored picture as the pages show it, from its files' sizes. */
export function shownPicture(
  slot: PictureSlot,
  hash: string,
  variants: readonly Omit<Variant, 'bytes'>[],
  alt: ShownPicture['alt'],
): ShownPicture | null {
  const jpeg = variants.find((variant) => variant.format === 'jpeg');
  if (!jpeg) return null;
  const srcset = (format: VariantFormat) =>
    variants
      .filter((variant) => variant.format === format)
      .sort((a, b) => a.width - b.width)
      .map((variant) => `${variantPath(slot, hash, format, variant.width)} ${variant.width}w`)
      .join(', ');
  return {
    sources: [
      { type: 'image/avif', srcset: srcset('avif') },
      { type: 'image/webp', srcset: srcset('webp') },
    ],
    src: variantPath(slot, hash, 'jpeg', jpeg.width),
    width: jpeg.width,
    height: jpeg.height,
    alt,
  };
}
