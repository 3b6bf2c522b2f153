/**
 * What an account may do. Every account is a member; staff are operators (read and answer messages,
 * see the analytics) and admins (also manage the staff). The first admin is made with
 * `npm run staff`, never by signing up first.
 */
export const ROLES = ['member', 'operator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const STAFF_ROLES = ['operator', 'admin'] as const satisfies readonly Role[];
export type StaffRole = (typeof STAFF_ROLES)[number];

export const isStaffRole = (value: unknown): value is StaffRole =>
  typeof value === 'string' && (STAFF_ROLES as readonly string[]).includes(value);
