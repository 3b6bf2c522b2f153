import { z } from 'zod';
import { DEFAULT_LANGUAGE, LANGUAGES } from './languages.ts';
import { REAUTHENTICATION_TARGETS } from './reauthentication-api.ts';

/** An identity to unlink, by the id the account page listed it with. */
export const UnlinkSchema = z.object({ id: z.uuid({ error: 'NOT_FOUND' }) });

/** A provider to link, and the language of the page to come back to. */
export const LinkSchema = z.object({
  provider: z.string({ error: 'NOT_FOUND' }).max(32, { error: 'NOT_FOUND' }),
  language: z._default(z.enum(LANGUAGES), DEFAULT_LANGUAGE),
});

/** A provider to sign in again with, the language of the account page, and the part of it to come back to. */
export const ReauthenticateSchema = LinkSchema.extend({
  returnTo: z.enum(REAUTHENTICATION_TARGETS, { error: 'INVALID_REQUEST' }),
});
