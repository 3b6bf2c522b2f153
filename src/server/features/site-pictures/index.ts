import { MAX_PICTURE_BYTES, PICTURE_TYPES, PICTURES_PREFIX, type SitePictures } from '#common/site-pictures.ts';
import type { Deps } from '#server/deps.ts';
import type { Feature } from '#server/http/feature.ts';
import type { Queryable } from '#server/platform/db/database.ts';
import type { AssetFile } from '#server/site/live-pages.ts';
import { shownPicture, variantPath } from './picture-files.ts';
import { readPictures, readVariantFiles } from './picture-queries.ts';
import { pictureRoutes } from './picture-routes.ts';

export { SITE_PICTURES_CHANNEL } from './picture-queries.ts';

/** The pages' pictures uploaded in the console (decision 204). */
export function sitePicturesFeature(deps: Deps): Feature {
  return {
    routes: pictureRoutes(deps),
    // A picture comes as the image itself, up to a phone photo's size; its texts and its removal are JSON.
    guardExemptions: [
      {
        path: PICTURES_PREFIX,
        contentTypes: [...PICTURE_TYPES, 'application/json'],
        maxBodyBytes: MAX_PICTURE_BYTES,
        tooLarge: 'PICTURE_TOO_LARGE',
      },
    ],
  };
}

/** The pictures stored now as the pages show them; undefined when there are none. */
export async function picturesInForce(db: Queryable): Promise<SitePictures | undefined> {
  const pictures: SitePictures = {};
  for (const row of await readPictures(db)) {
    const shown = shownPicture(row.slot, row.hash, row.variants, row.alt);
    if (shown) pictures[row.slot] = shown;
  }
  return Object.keys(pictures).length > 0 ? pictures : undefined;
}

/** The files the stored pictures are served from, by their paths. */
export async function pictureFiles(db: Queryable): Promise<AssetFile[]> {
  return (await readVariantFiles(db)).map((file) => ({
    path: variantPath(file.slot, file.hash, file.format, file.width),
    body: file.bytes,
  }));
}
