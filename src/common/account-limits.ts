/**
 * The length limits of the account fields, apart from the schemas that enforce them, so that the
 * messages that name them do not bring the schemas (and zod) along.
 */
export const NAME_MAX_LENGTH = 100;
export const EMAIL_MAX_LENGTH = 254;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const CODE_LENGTH = 6;
