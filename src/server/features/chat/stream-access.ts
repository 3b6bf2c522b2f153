import { DESK_ROLES, type Role } from '#common/roles.ts';
import type { Deps } from '#server/deps.ts';
import { findSession, roleOf } from '#server/features/accounts/index.ts';

// What an open stream asks again when the hub says its session or role may have changed (decision
// 093): the rules that let it open, applied to the session it was opened with.

type AccessDeps = Pick<Deps, 'db' | 'settings'>;

/** The session with this token hash still exists and has not lapsed. */
export async function sessionActive(deps: AccessDeps, tokenHash: string): Promise<boolean> {
  const session = await findSession(deps.db, tokenHash, deps.settings.sessionIdleSeconds);
  return session !== null && !session.lapsed;
}

/** That, and its account still reads what visitors write (an operator or an admin). */
export async function staffSessionActive(deps: AccessDeps, tokenHash: string): Promise<boolean> {
  const session = await findSession(deps.db, tokenHash, deps.settings.sessionIdleSeconds);
  if (session === null || session.lapsed) return false;
  const role = await roleOf(deps.db, session.accountId);
  return (DESK_ROLES as readonly (Role | null)[]).includes(role);
}
