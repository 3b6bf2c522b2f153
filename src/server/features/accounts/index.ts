import { ACCOUNT_API } from '#common/account-api.ts';
import type { Deps } from '#server/deps.ts';
import { newRoutes } from '#server/http/context.ts';
import type { Feature } from '#server/http/feature.ts';
import { accountRoutes } from './account-routes.ts';
import { dataExportRoutes } from './data-export-routes.ts';
import { emailChangeRoutes } from './email-change-routes.ts';
import { identityRoutes } from './identity-routes.ts';
import { passkeyRoutes } from './passkey-routes.ts';
import { passwordChangeRoutes } from './password-change-routes.ts';
import { passwordResetRoutes } from './password-reset-routes.ts';
import { createPasswords, DEFAULT_HASHING, defaultHashingLimits } from './passwords.ts';
import { FORM_OR_JSON } from './plain-form-post.ts';
import { registrationRoutes } from './registration-routes.ts';
import { secondFactorRoutes } from './second-factor-routes.ts';
import { sessionListRoutes } from './session-list-routes.ts';
import { signInRoutes } from './sign-in-routes.ts';

export { issueSetPasswordLink } from './codes.ts';
export { accountJobs } from './maintenance.ts';
export { createPasswords, DEFAULT_HASHING, type Passwords } from './passwords.ts';
export {
  changeRole,
  findStaffMember,
  grantStaffRole,
  listStaff,
  type RoleChange,
  requireStaff,
  roleOf,
  type StaffMember,
  type StaffSession,
} from './roles.ts';
export { hasSecondFactor } from './second-factor-queries.ts';
export { findSession } from './session-queries.ts';
export { type ActiveSession, readSession, type SessionState } from './sessions.ts';

/** Registration, email confirmation, sign-in and sessions, second factors, password reset, the account itself. */
export function accountsFeature(deps: Deps): Feature {
  const passwords = createPasswords(
    deps.settings.passwordHashing ?? DEFAULT_HASHING,
    deps.settings.hashingLimits ?? defaultHashingLimits(),
  );
  deps.metrics.watchHashing(passwords.load);
  const accountDeps = { ...deps, passwords };
  const routes = newRoutes()
    .route('/', registrationRoutes(accountDeps))
    .route('/', signInRoutes(accountDeps))
    .route('/', passwordResetRoutes(accountDeps))
    .route('/', accountRoutes(accountDeps))
    .route('/', secondFactorRoutes(accountDeps))
    .route('/', passkeyRoutes(accountDeps))
    .route('/', sessionListRoutes(accountDeps))
    .route('/', passwordChangeRoutes(accountDeps))
    .route('/', emailChangeRoutes(accountDeps))
    .route('/', dataExportRoutes(accountDeps))

    .route('/', identityRoutes(accountDeps));
  // These forms work without JavaScript too: they take a plain form post as well as JSON (the
  // Origin check stays, browsers send Origin with a form post; docs/decisions/125).
  const plainForms = [
    ACCOUNT_API.register,
    ACCOUNT_API.verify,
    ACCOUNT_API.login,
    ACCOUNT_API.forgotPassword,
    ACCOUNT_API.resetPassword,
  ];
  return { routes, guardExemptions: plainForms.map((path) => ({ path, contentTypes: FORM_OR_JSON })) };
}
export { addPasskey } from './passkey-queries.ts';
export {
  addOptions,
  issueChallenge,
  provePasskey,
  signInOptions,
  verifyAssertion,
  verifyNewPasskey,
} from './passkeys.ts';
export type { HashingParams } from './passwords.ts';
export { relyingParty } from './relying-party.ts';
export { issueRecoveryCodes, proveSecondFactor } from './second-factors.ts';
export { matchingStep, newTotpSecret, openTotpSecret, sealTotpSecret, stepAt, totpCode } from './totp.ts';
