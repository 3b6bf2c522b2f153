import { CodeSchema, PasswordSchema, ProofPasswordSchema } from './account-schemas.ts';
import { EmailSchema, requiredText } from './fields.ts';
import { z } from './zod.ts';

/** The rules of the account page's own forms (sessions, password, email, data), for browser and server. */

export const EndSessionSchema = z.object({ id: z.uuid({ error: 'NOT_FOUND' }) });

/**
 * The current password proves it is the owner (ASVS 6.2.2); the new one follows the registration
 * rules. An account without a password leaves the current one out: it sets its first one, confirmed
 * at its provider (docs/decisions/220).
 */
export const ChangePasswordSchema = z.object({
  currentPassword: ProofPasswordSchema,
  newPassword: PasswordSchema,
});

export const EmailChangeStartSchema = z.object({ email: EmailSchema, password: ProofPasswordSchema });

/** Six digits, spaces ignored, as the mailed codes of registration. */
export const EmailChangeConfirmSchema = z.object({ code: CodeSchema });

/** The token of the link mailed to the old address: 43 characters of base64url. */
export const EmailChangeUndoSchema = z.object({
  token: requiredText('LINK_EXPIRED').check(z.maxLength(100, 'LINK_EXPIRED')),
});
