import { FINGERPRINT_PATH } from '#common/fingerprint.ts';
import type { Deps } from '#server/deps.ts';
import type { Feature } from '#server/http/feature.ts';
import { FINGERPRINT_MAX_BODY_BYTES, fingerprintRoutes } from './fingerprint-routes.ts';

export { requireVisitor } from './require-visitor.ts';

/**
 * The visitor identifier. The fingerprint call carries no session and changes nothing but its own
 * rate limit, so it is taken out of the Origin check; it checks its content type itself, to answer
 * with the visitor codes.
 */
export function visitorFeature(deps: Deps): Feature {
  return {
    routes: fingerprintRoutes(deps),
    guardExemptions: [
      {
        path: FINGERPRINT_PATH,
        origin: false,
        maxBodyBytes: FINGERPRINT_MAX_BODY_BYTES,
        tooLarge: 'INVALID_FINGERPRINT',
      },
    ],
  };
}
export { issueFpid } from './fpid.ts';
