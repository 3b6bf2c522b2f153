import { createHash, createHmac, randomBytes, randomInt } from 'node:crypto';
import { CODE_LENGTH } from '../../common/account-schemas.ts';

/** A session token: 256 random bits. */
export const newSessionToken = () => randomBytes(32).toString('base64url');

/** What the database keeps of a session token. The token is random enough that a plain hash cannot be reversed. */
export const hashSessionToken = (token: string) => createHash('sha256').update(token).digest('base64url');

/** A six-digit code from the operating system's cryptographic random source. */
export const newCode = () =>
  randomInt(0, 10 ** CODE_LENGTH)
    .toString()
    .padStart(CODE_LENGTH, '0');

/**
 * What the database keeps of a code, or of any short value worth hiding (an email address in a
 * rate limit key): a keyed hash, since a million codes could be tried against a plain one.
 */
export const keyedHash = (secret: Buffer, ...parts: string[]) =>
  createHmac('sha256', secret).update(parts.join('\u0000')).digest('base64url');
