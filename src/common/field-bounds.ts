/**
 * The account fields' bounds, without their zod rules (account-schemas.ts): what the browser needs
 * before the rules have loaded, such as the password strength indicator.
 */

export const NAME_MAX_LENGTH = 100;
export const EMAIL_MAX_LENGTH = 254;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const CODE_LENGTH = 6;

/** Length in characters as a reader counts them (code points), not UTF-16 units. */
export const characterCount = (text: string) => [...text].length;
