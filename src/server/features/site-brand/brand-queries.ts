import type { Language } from '#common/languages.ts';
import { notifyIn, type Queryable } from '#server/platform/db/database.ts';
import type { LogoType } from './logo.ts';

/** Instances hear on this channel that the brand changed, and render every page again. */
export const SITE_BRAND_CHANNEL = 'site_brand';

export interface BrandRow {
  /** The parts of config.json the console set, in its shape. */
  settings: Record<string, unknown>;
  logo: Uint8Array | null;
  logoType: LogoType | null;
  logoAlt: Partial<Record<Language, string>>;
}

const NONE: BrandRow = { settings: {}, logo: null, logoType: null, logoAlt: {} };

export async function readBrand(db: Queryable): Promise<BrandRow> {
  const [row] = await db.query<BrandRow>(
    `SELECT settings, logo, logo_type AS "logoType", logo_alt AS "logoAlt" FROM site_brand WHERE id`,
  );
  return row ?? NONE;
}

/** Stores what the console set and tells every instance at COMMIT. */
export async function saveBrand(
  tx: Queryable,
  change: {
    settings?: Record<string, unknown>;
    logoAlt?: BrandRow['logoAlt'];
    logo?: { type: LogoType; body: Uint8Array } | null;
  },
  accountId: string,
): Promise<void> {
  await tx.query('INSERT INTO site_brand (id) VALUES (true) ON CONFLICT (id) DO NOTHING');
  if (change.settings)
    await tx.query('UPDATE site_brand SET settings = $1 WHERE id', [JSON.stringify(change.settings)]);
  if (change.logoAlt) await tx.query('UPDATE site_brand SET logo_alt = $1 WHERE id', [JSON.stringify(change.logoAlt)]);
  if (change.logo !== undefined) {
    await tx.query('UPDATE site_brand SET logo = $1, logo_type = $2 WHERE id', [
      change.logo?.body ?? null,
      change.logo?.type ?? null,
    ]);
  }
  await tx.query('UPDATE site_brand SET updated_by = $1, updated_at = now() WHERE id', [accountId]);
  await notifyIn(tx, SITE_BRAND_CHANNEL, '');
}
