import type { Deps } from '#server/deps.ts';
import type { Passwords } from './passwords.ts';

/** What the account routes work with: the app's dependencies and the password hasher made from its settings. */
export interface AccountDeps extends Deps {
  passwords: Passwords;
}
