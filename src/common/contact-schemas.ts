import { characterCount, EmailSchema, NameSchema } from './account-schemas.ts';
import { CONTACT_MESSAGE_MAX_LENGTH, MESSAGE_MIN_LENGTH, REPLY_MAX_LENGTH } from './contact-api.ts';
import { DEFAULT_LANGUAGE, LANGUAGES } from './languages.ts';
import { matchPage } from './routes.ts';
import { z } from './zod.ts';

/**
 * The contact form's rules, shared by the page (each field as it is touched) and the server (the
 * whole post, JSON or a plain form). Each rule names its error code, as in account-schemas.ts.
 */

const HONEYPOT_MAX_LENGTH = 500;
const TOKEN_MAX_LENGTH = 200;
const PAGE_MAX_LENGTH = 200;

/**
 * What a message body keeps of what was typed or pasted: line breaks in one form, composed
 * characters, no control characters but tab and line feed (a NUL cannot even be stored), and a
 * lone half of a surrogate pair, which no text means, as the replacement character.
 */
export function cleanText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/(?![\t\n])\p{Cc}/gu, '')
    .replace(/\p{Cs}/gu, '\ufffd')
    .normalize('NFC')
    .trim();
}

/** A text field that must be there: absent says MISSING_REQUIRED_FIELD, anything but a string INVALID_REQUEST. */
const text = () =>
  z.string({
    error: (issue) =>
      issue.input === undefined || issue.input === null ? 'MISSING_REQUIRED_FIELD' : 'INVALID_REQUEST',
  });

/** The message itself: 10 to 5,000 characters once cleaned. */
export const ContactMessageBodySchema = z.pipe(
  text().check(z.overwrite(cleanText)),
  z.string().check(
    z.refine((body) => body.length > 0, 'MISSING_REQUIRED_FIELD'),
    z.refine((body) => characterCount(body) >= MESSAGE_MIN_LENGTH, 'MESSAGE_TOO_SHORT'),
    z.refine((body) => characterCount(body) <= CONTACT_MESSAGE_MAX_LENGTH, 'MESSAGE_TOO_LONG'),
  ),
);

/** A staff member's answer: anything from one character to 10,000. */
export const ReplyBodySchema = z.pipe(
  text().check(z.overwrite(cleanText)),
  z.string().check(
    z.refine((body) => body.length > 0, 'MISSING_REQUIRED_FIELD'),
    z.refine((body) => characterCount(body) <= REPLY_MAX_LENGTH, 'MESSAGE_TOO_LONG'),
  ),
);

/** One of the subjects the site offers (config.json); the mail subject line is built from its label, never from input. */
export const subjectSchema = (subjects: readonly string[]) =>
  z
    .string({
      error: (issue) =>
        issue.input === undefined || issue.input === null ? 'MISSING_REQUIRED_FIELD' : 'INVALID_SUBJECT',
    })
    .check(
      z.refine((subject) => subject !== '', 'MISSING_REQUIRED_FIELD'),
      z.refine((subject) => subject === '' || subjects.includes(subject), 'INVALID_SUBJECT'),
    );

/** A page of this site, as the form names the one it was sent from. */
const PageSchema = z.string().check(
  z.maxLength(PAGE_MAX_LENGTH),
  z.refine((page) => matchPage(page) !== null),
);

/** A whole post, as the server checks it. Hidden fields that are not what the form sends fail as INVALID_REQUEST. */
export const contactMessageSchema = (subjects: readonly string[]) =>
  z.object({
    name: NameSchema,
    email: EmailSchema,
    subject: subjectSchema(subjects),
    message: ContactMessageBodySchema,
    language: z._default(z.enum(LANGUAGES), DEFAULT_LANGUAGE),
    page: z.optional(PageSchema),
    /** The honeypot: hidden from people, so only a robot fills it in. */
    website: z.optional(z.string().check(z.maxLength(HONEYPOT_MAX_LENGTH))),
    /** The signed time stamp from the form token endpoint; absent when the page ran without script. */
    token: z.optional(z.string().check(z.maxLength(TOKEN_MAX_LENGTH))),
  });

export type ContactMessageInput = z.infer<ReturnType<typeof contactMessageSchema>>;
