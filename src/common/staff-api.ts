import type { MailDelivery } from './mail-delivery.ts';
import type { StaffRole } from './roles.ts';

/**
 * Who is signed in to the console, and the staff page (the staff feature's staff-routes.ts on the
 * server): paths and answers for the server, the console and the tests. The request schemas are in
 * staff-schemas.ts.
 */
export const STAFF_API = {
  /** GET (any staff member, editors too): who is signed in to the console. */
  me: '/api/console/me',
  /** GET (admins): the staff; POST: add someone by address (AddStaffSchema). */
  members: '/api/console/staff',
  /** POST (admins): a staff member's new role (RoleSchema). */
  role: '/api/console/staff/:id/role',
} as const;

export interface MeAnswer {
  /** The staff member's account id: what the chat's assignments name. */
  id: string;
  name: string;
  email: string;
  role: StaffRole;
  /** How the server delivers mail: through SMTP, or kept in the outbox table and its log (no SMTP_URL). */
  mail: 'smtp' | 'kept';
}

export interface StaffAnswer {
  staff: {
    id: string;
    name: string;
    email: string;
    role: StaffRole;
    verified: boolean;
    createdAt: string;
    /** The invitation's mail, for someone who has not set a password yet and was invited from the console. */
    invitation: MailDelivery | null;
  }[];
}

/** Adding someone: an existing account gets the role; a new address gets an account and a mailed invitation. */
export interface AddStaffAnswer {
  id: string;
  invited: boolean;
}
