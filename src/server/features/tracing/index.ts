import { TRACES_PATH } from '#common/analytics.ts';
import type { Deps } from '#server/deps.ts';
import type { Feature } from '#server/http/feature.ts';
import { TRACES_MAX_BODY_BYTES, tracesRoutes } from './traces-routes.ts';

/** The browser's traces. Exported as beacons without a session, so out of the Origin check; JSON is checked by the route. */
export function tracingFeature(deps: Deps): Feature {
  return {
    routes: tracesRoutes(deps),
    guardExemptions: [{ path: TRACES_PATH, origin: false, maxBodyBytes: TRACES_MAX_BODY_BYTES }],
  };
}
