import { randomBytes } from 'node:crypto';
import { createMiddleware } from 'hono/factory';
import { DESK_ROLES, isStaffRole, type Role, type StaffRole } from '#common/roles.ts';
import type { Deps } from '#server/deps.ts';
import { ApiError } from '#server/http/api-error.ts';
import { refuseCrossSite } from '#server/http/guards.ts';
import type { Database, Queryable } from '#server/platform/db/database.ts';
import type { Passwords } from './passwords.ts';
import { hasSecondFactor } from './second-factor-queries.ts';
import { isStrongSession } from './second-factors.ts';
import { readSession } from './sessions.ts';

/** A signed-in staff member, as the console's routes see them. */
export interface StaffSession {
  accountId: string;
  name: string;
  role: StaffRole;
}

export interface StaffMember {
  id: string;
  name: string;
  email: string;
  role: StaffRole;
  /** Whether they have set a password and confirmed the address (an invitation may still be open). */
  verified: boolean;
  createdAt: Date;
}

export async function roleOf(db: Queryable, accountId: string): Promise<Role | null> {
  const [row] = await db.query<{ role: Role }>('SELECT role FROM accounts WHERE id = $1', [accountId]);
  return row?.role ?? null;
}

/**
 * Lets through only a signed-in account whose role is one of `allowed` (by default those who read
 * what visitors write: not editors), read from the database on
 * every request, so that a role taken away counts at once: UNAUTHORIZED or SESSION_EXPIRED without
 * a session, FORBIDDEN with a session of anyone else; SECOND_FACTOR_REQUIRED for staff whose
 * account has no second factor or whose session was made without one (the console reads every
 * visitor's messages: a password alone must not open it); and never a request another site's page
 * made (see refuseCrossSite), reads included.
 */
export function requireStaff(deps: Pick<Deps, 'db' | 'settings' | 'site'>, allowed: readonly StaffRole[] = DESK_ROLES) {
  const { db } = deps;
  const idleTimeout = deps.settings.sessionIdleSeconds;
  return createMiddleware<{ Variables: { staff: StaffSession } }>(async (c, next) => {
    refuseCrossSite(c, deps.site.siteUrl);
    const session = await readSession(c, db, idleTimeout);
    if (session.kind === 'none') throw new ApiError(401, 'UNAUTHORIZED');
    if (session.kind === 'lapsed') throw new ApiError(401, 'SESSION_EXPIRED');
    const role = await roleOf(db, session.accountId);
    if (!isStaffRole(role) || !allowed.includes(role)) throw new ApiError(403, 'FORBIDDEN');
    // A provider that reported a second factor (its `amr`) stands in for the site's own.
    const providerVouched = session.factors.includes('oidc-mfa');
    if (!isStrongSession(session.factors) || !(providerVouched || (await hasSecondFactor(db, session.accountId)))) {
      throw new ApiError(403, 'SECOND_FACTOR_REQUIRED');
    }
    c.set('staff', { accountId: session.accountId, name: session.name, role });
    await next();
  });
}

export async function listStaff(db: Queryable): Promise<StaffMember[]> {
  return db.query<StaffMember>(
    `SELECT id, name, email, role, verified_at IS NOT NULL AS verified, created_at AS "createdAt"
     FROM accounts WHERE role <> 'member' ORDER BY role = 'admin' DESC, lower(name), email`,
  );
}

export async function findStaffMember(db: Queryable, id: string): Promise<StaffMember | null> {
  const [row] = await db.query<StaffMember>(
    `SELECT id, name, email, role, verified_at IS NOT NULL AS verified, created_at AS "createdAt"
     FROM accounts WHERE id = $1 AND role <> 'member'`,
    [id],
  );
  return row ?? null;
}

/**
 * Gives the account with this address a staff role, making the account first when there is none
 * (with a password nobody knows, to be set through a set-password link, and no phone number).
 * An account that is not confirmed when the link is used is confirmed by it.
 */
export async function grantStaffRole(
  db: Database,
  passwords: Passwords,
  person: { email: string; name: string; language: string },
  role: StaffRole,
): Promise<{ id: string; email: string; name: string; created: boolean }> {
  // Hashed before the transaction: the slow part holds no lock.
  const unusable = await passwords.hash(randomBytes(32).toString('base64url'));
  return db.transaction(async (tx) => {
    const [created] = await tx.query<{ id: string; name: string }>(
      `INSERT INTO accounts (name, email, phone, password_hash, language, role) VALUES ($1, $2, NULL, $3, $4, $5)
       ON CONFLICT (email) DO NOTHING RETURNING id, name`,
      [person.name, person.email, unusable, person.language, role],
    );
    if (created) return { id: created.id, email: person.email, name: created.name, created: true };
    const [existing] = await tx.query<{ id: string; name: string }>(
      'UPDATE accounts SET role = $2 WHERE email = $1 RETURNING id, name',
      [person.email, role],
    );
    if (!existing) throw new Error('The account disappeared while its role was set');
    return { id: existing.id, email: person.email, name: existing.name, created: false };
  });
}

export type RoleChange = 'changed' | 'own-role' | 'not-found' | 'forbidden';

/**
 * An admin sets another account's role (`member` takes it off the staff). Admins' rows are locked
 * first, so two admins demoting each other at the same moment cannot leave the site without one:
 * the second sees it is no longer an admin. Nobody changes their own role, so an admin always remains.
 */
export async function changeRole(db: Database, actorId: string, targetId: string, role: Role): Promise<RoleChange> {
  if (actorId === targetId) return 'own-role';
  return db.transaction(async (tx) => {
    const admins = await tx.query<{ id: string }>(`SELECT id FROM accounts WHERE role = 'admin' FOR UPDATE`);
    if (!admins.some((admin) => admin.id === actorId)) return 'forbidden';
    const updated = await tx.query("UPDATE accounts SET role = $2 WHERE id = $1 AND role <> 'member' RETURNING 1", [
      targetId,
      role,
    ]);
    return updated.length > 0 ? 'changed' : 'not-found';
  });
}
