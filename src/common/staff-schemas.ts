import { EmailSchema, NameSchema } from './fields.ts';
import { DEFAULT_LANGUAGE, LANGUAGES } from './languages.ts';
import { ROLES, STAFF_ROLES } from './roles.ts';
import { z } from './zod.ts';

/** Adding a staff member by address; the name is for an address that has no account yet. */
export const AddStaffSchema = z.object({
  email: EmailSchema,
  name: z.optional(NameSchema),
  role: z.enum(STAFF_ROLES),
  /** The language of the invitation mail. */
  language: z._default(z.enum(LANGUAGES), DEFAULT_LANGUAGE),
});

/** A new role for a staff member; `member` takes them off the staff. */
export const RoleSchema = z.object({ role: z.enum(ROLES) });
