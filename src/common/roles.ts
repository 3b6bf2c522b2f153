/**
 * What an account may do. Every account is a member; staff are editors (edit and publish the site's
 * texts), operators (read and answer messages and chats, see the analytics) and admins (all of it,
 * and manage the staff). The first admin is made with `npm run staff`, never by signing up first.
 */
export const ROLES = ['member', 'editor', 'operator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const STAFF_ROLES = ['editor', 'operator', 'admin'] as const satisfies readonly Role[];
export type StaffRole = (typeof STAFF_ROLES)[number];

/** The roles that read what visitors write (messages, chats, analytics): not editors. */
export const DESK_ROLES = ['operator', 'admin'] as const satisfies readonly StaffRole[];

/** The roles that edit and publish the site's texts. */
export const EDITOR_ROLES = ['editor', 'admin'] as const satisfies readonly StaffRole[];

export const isStaffRole = (value: unknown): value is StaffRole =>
  typeof value === 'string' && (STAFF_ROLES as readonly string[]).includes(value);
