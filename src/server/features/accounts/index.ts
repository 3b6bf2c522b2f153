import type { Deps } from '#server/deps.ts';
import { newRoutes } from '#server/http/context.ts';
import type { Feature } from '#server/http/feature.ts';
import { accountRoutes } from './account-routes.ts';
import { passwordResetRoutes } from './password-reset-routes.ts';
import { createPasswords, DEFAULT_HASHING } from './passwords.ts';
import { registrationRoutes } from './registration-routes.ts';
import { signInRoutes } from './sign-in-routes.ts';

export { accountJobs } from './maintenance.ts';
export { type ActiveSession, readSession, type SessionState } from './sessions.ts';

/** Registration, email confirmation, sign-in and sessions, password reset, the account itself. */
export function accountsFeature(deps: Deps): Feature {
  const accountDeps = { ...deps, passwords: createPasswords(deps.settings.passwordHashing ?? DEFAULT_HASHING) };
  const routes = newRoutes()
    .route('/', registrationRoutes(accountDeps))
    .route('/', signInRoutes(accountDeps))
    .route('/', passwordResetRoutes(accountDeps))
    .route('/', accountRoutes(accountDeps));
  return { routes };
}
