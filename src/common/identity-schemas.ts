import { DEFAULT_LANGUAGE, LANGUAGES } from './languages.ts';
import { REAUTHENTICATION_TARGETS } from './reauthentication-api.ts';
import { z } from './zod.ts';

/** An identity to unlink, by the id the account page listed it with. */
export const UnlinkSchema = z.object({ id: z.uuid({ error: 'NOT_FOUND' }) });

/** A provider to link, and the language of the page to come back to. */
export const LinkSchema = z.object({
  provider: z.string({ error: 'NOT_FOUND' }).check(z.maxLength(32, { error: 'NOT_FOUND' })),
  language: z._default(z.enum(LANGUAGES), DEFAULT_LANGUAGE),
});

/** A provider to sign in again with, the language of the account page, and the part of it to come back to. */
export const ReauthenticateSchema = z.extend(LinkSchema, {
  returnTo: z.enum(REAUTHENTICATION_TARGETS, { error: 'INVALID_REQUEST' }),
});
