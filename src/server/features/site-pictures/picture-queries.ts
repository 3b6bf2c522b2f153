import type { Language } from '#common/languages.ts';
import type { PictureSlot } from '#common/site-pictures.ts';
import { notifyIn, type Queryable } from '#server/platform/db/database.ts';
import type { MadePicture, Variant } from './picture-files.ts';

/** Instances hear on this channel that a picture changed, and render every page again with it. */
export const SITE_PICTURES_CHANNEL = 'site_pictures';

export type PictureAlt = Partial<Record<Language, string>>;

/** A stored picture without its bytes: what the configuration in force is made from. */
export interface PictureRow {
  slot: PictureSlot;
  hash: string;
  alt: PictureAlt;
  variants: Omit<Variant, 'bytes'>[];
}

export async function readPictures(db: Queryable): Promise<PictureRow[]> {
  const pictures = await db.query<{ slot: PictureSlot; hash: string; alt: PictureAlt }>(
    'SELECT slot, hash, alt FROM site_pictures ORDER BY slot',
  );
  const variants = await db.query<Omit<Variant, 'bytes'> & { slot: PictureSlot }>(
    'SELECT slot, format, width, height FROM site_picture_variants',
  );
  return pictures.map((picture) => ({
    ...picture,
    variants: variants
      .filter((variant) => variant.slot === picture.slot)
      .map(({ format, width, height }) => ({ format, width, height })),
  }));
}

/** The files of the pictures stored now, bytes included. */
export async function readVariantFiles(db: Queryable): Promise<(Variant & { slot: PictureSlot; hash: string })[]> {
  const rows = await db.query<Variant & { slot: PictureSlot; hash: string }>(
    `SELECT v.slot, p.hash, v.format, v.width, v.height, v.bytes
       FROM site_picture_variants v JOIN site_pictures p USING (slot)`,
  );
  return rows.map((row) => ({ ...row, bytes: new Uint8Array(row.bytes) }));
}

/** Puts an upload and its files in a slot (in place of the one there, keeping its texts), and tells every instance at COMMIT. */
export async function savePicture(
  tx: Queryable,
  slot: PictureSlot,
  original: Uint8Array,
  made: MadePicture,
  accountId: string,
): Promise<void> {
  await tx.query(
    `INSERT INTO site_pictures (slot, original, type, width, height, hash, updated_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (slot) DO UPDATE SET original = $2, type = $3, width = $4, height = $5, hash = $6,
       updated_by = $7, updated_at = now()`,
    [slot, original, made.type, made.width, made.height, made.hash, accountId],
  );
  await tx.query('DELETE FROM site_picture_variants WHERE slot = $1', [slot]);
  for (const variant of made.variants) {
    await tx.query(
      'INSERT INTO site_picture_variants (slot, format, width, height, bytes) VALUES ($1, $2, $3, $4, $5)',
      [slot, variant.format, variant.width, variant.height, variant.bytes],
    );
  }
  await notifyIn(tx, SITE_PICTURES_CHANNEL, '');
}

/** Sets a picture's texts; false when the slot holds no picture. */
export async function savePictureAlt(
  tx: Queryable,
  slot: PictureSlot,
  alt: PictureAlt,
  accountId: string,
): Promise<boolean> {
  const updated = await tx.query(
    'UPDATE site_pictures SET alt = $2, updated_by = $3, updated_at = now() WHERE slot = $1 RETURNING slot',
    [slot, JSON.stringify(alt), accountId],
  );
  if (updated.length === 0) return false;
  await notifyIn(tx, SITE_PICTURES_CHANNEL, '');
  return true;
}

/** Takes a picture off its page (its files go with it). */
export async function deletePicture(tx: Queryable, slot: PictureSlot): Promise<void> {
  await tx.query('DELETE FROM site_pictures WHERE slot = $1', [slot]);
  await notifyIn(tx, SITE_PICTURES_CHANNEL, '');
}
