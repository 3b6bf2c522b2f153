import type { Deps } from '#server/deps.ts';
import { newRoutes } from '#server/http/context.ts';
import type { Feature } from '#server/http/feature.ts';
import { accountRoutes } from './account-routes.ts';
import { passwordResetRoutes } from './password-reset-routes.ts';
import { createPasswords, DEFAULT_HASHING, defaultHashingLimits } from './passwords.ts';
import { registrationRoutes } from './registration-routes.ts';
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
  type StaffMember,
  type StaffSession,
} from './roles.ts';
export { type ActiveSession, readSession, type SessionState } from './sessions.ts';

/** Registration, email confirmation, sign-in and sessions, password reset, the account itself. */
export function accountsFeature(deps: Deps): Feature {
  const passwords = createPasswords(
    deps.settings.passwordHashing ?? DEFAULT_HASHING,
    deps.settings.hashingLimits ?? defaultHashingLimits(),
  );
  const accountDeps = { ...deps, passwords };
  const routes = newRoutes()
    .route('/', registrationRoutes(accountDeps))
    .route('/', signInRoutes(accountDeps))
    .route('/', passwordResetRoutes(accountDeps))
    .route('/', accountRoutes(accountDeps));
  return { routes };
}
export type { HashingParams } from './passwords.ts';
