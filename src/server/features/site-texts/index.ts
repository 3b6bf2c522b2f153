import type { Deps } from '#server/deps.ts';
import type { Feature } from '#server/http/feature.ts';
import { textsRoutes } from './texts-routes.ts';

export { SiteTexts } from './site-texts.ts';

/** The site's texts edited and published from the console (decision 200). */
export function siteTextsFeature(deps: Deps): Feature {
  return { routes: textsRoutes(deps) };
}
