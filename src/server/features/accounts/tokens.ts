import { createHash, randomBytes, randomInt } from 'node:crypto';
import { CODE_LENGTH } from '#common/field-bounds.ts';

/** A session token: 256 random bits. */
export const newSessionToken = () => randomBytes(32).toString('base64url');

/** What the database keeps of a session token. The token is random enough that a plain hash cannot be reversed. */
export const hashSessionToken = (token: string) => createHash('sha256').update(token).digest('base64url');

/** A six-digit code from the operating system's cryptographic random source. */
export const newCode = () =>
  randomInt(0, 10 ** CODE_LENGTH)
    .toString()
    .padStart(CODE_LENGTH, '0');
