import { CHAT_VIEWS, RATING_COMMENT_MAX_LENGTH, SAVED_REPLY_SHORTCUT } from './chat-desk-api.ts';
import { ChatMessageBodySchema } from './chat-schemas.ts';
import { EmailSchema } from './fields.ts';
import { LANGUAGES } from './languages.ts';
import { z } from './zod.ts';

/** A saved reply: its shortcut, and a text in at least one of the site's languages. */
export const SavedReplySchema = z.object({
  shortcut: z
    .string({ error: 'MISSING_REQUIRED_FIELD' })
    .check(z.trim(), z.toLowerCase(), z.regex(SAVED_REPLY_SHORTCUT, 'INVALID_SHORTCUT')),
  texts: z
    .partialRecord(z.enum(LANGUAGES, { error: 'INVALID_REQUEST' }), ChatMessageBodySchema, { error: 'INVALID_REQUEST' })
    .check(z.refine((texts) => Object.keys(texts).length > 0, 'MISSING_REQUIRED_FIELD')),
});

/** An operator's or admin's account id, or null to leave the conversation to nobody. */
export const AssignSchema = z.object({
  assignee: z.nullable(z.string({ error: 'INVALID_REQUEST' }).check(z.regex(/^[0-9a-f-]{36}$/, 'INVALID_REQUEST'))),
});

export const ChatListViewSchema = z.object({
  view: z._default(z.enum(CHAT_VIEWS, { error: 'INVALID_REQUEST' }), 'all'),
});

/** Words, an address or a name: at least two characters, at most a line. */
export const SearchQuerySchema = z.object({
  q: z
    .string({ error: 'MISSING_REQUIRED_FIELD' })
    .check(z.trim(), z.minLength(2, 'SEARCH_TOO_SHORT'), z.maxLength(200, 'INVALID_REQUEST')),
});

/** How many weeks back, 1 to 52 (8 when not said). */
export const QualityQuerySchema = z.object({
  weeks: z.optional(
    z.string({ error: 'INVALID_REQUEST' }).check(z.regex(/^([1-9]|[1-4]\d|5[0-2])$/, 'INVALID_REQUEST')),
  ),
});

export const RatingSchema = z.object({
  score: z
    .number({ error: 'INVALID_RATING' })
    .check(z.int('INVALID_RATING'), z.gte(1, 'INVALID_RATING'), z.lte(5, 'INVALID_RATING')),
  comment: z._default(
    z.string({ error: 'INVALID_REQUEST' }).check(z.trim(), z.maxLength(RATING_COMMENT_MAX_LENGTH, 'MESSAGE_TOO_LONG')),
    '',
  ),
});

/** The transcript goes to the address given here, or else to the one the conversation has. */
export const TranscriptSchema = z.object({ email: z.optional(EmailSchema) });

export const ResumeQuerySchema = z.object({
  c: z.string().check(z.regex(/^\d{1,15}$/)),
  e: z.string().check(z.regex(/^\d{1,12}$/)),
  s: z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/)),
});
