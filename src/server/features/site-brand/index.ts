import { BRAND_API, LOGO_TYPES, MAX_LOGO_BYTES } from '#common/site-brand.ts';
import type { Deps } from '#server/deps.ts';
import type { Feature } from '#server/http/feature.ts';
import { brandRoutes } from './brand-routes.ts';

export { SiteBrand } from './site-brand.ts';

/** The brand and legal facts set in the console over config.json (decision 203). */
export function siteBrandFeature(deps: Deps): Feature {
  return {
    routes: brandRoutes(deps),
    // The logo comes as the image itself, larger than a JSON body may be; removing it is JSON.
    guardExemptions: [
      {
        path: BRAND_API.logo,
        contentTypes: [...LOGO_TYPES, 'application/json'],
        maxBodyBytes: MAX_LOGO_BYTES,
        tooLarge: 'LOGO_TOO_LARGE',
      },
    ],
  };
}
