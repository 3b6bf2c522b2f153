import { CHAT_MESSAGE_MAX_LENGTH, CLIENT_MESSAGE_ID, PAGE_MAX_LENGTH } from './chat-api.ts';
import { EmailSchema } from './fields.ts';
import { DEFAULT_LANGUAGE, LANGUAGES } from './languages.ts';
import { z } from './zod.ts';

/**
 * Chat request bodies, each rule naming its error code. A message keeps its line breaks and its
 * inner spaces; what no message needs (control characters other than tab and line breaks, lone
 * surrogate halves, bidirectional overrides that make text lie about itself) is refused.
 */
const FORBIDDEN_IN_MESSAGE = /(?![\t\n\r])[\p{Cc}\p{Cs}\u202a-\u202e\u2066-\u2069]/u;

export const ChatMessageBodySchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'MISSING_REQUIRED_FIELD' : 'INVALID_REQUEST') })
  .check(
    z.trim(),
    z.minLength(1, 'MISSING_REQUIRED_FIELD'),
    z.refine((body) => [...body].length <= CHAT_MESSAGE_MAX_LENGTH, 'VALIDATION_ERROR'),
    z.refine((body) => !FORBIDDEN_IN_MESSAGE.test(body), 'INVALID_REQUEST'),
  );

const ClientMessageIdSchema = z
  .string({ error: 'INVALID_REQUEST' })
  .check(z.regex(CLIENT_MESSAGE_ID, 'INVALID_REQUEST'));

/** A site path, as the widget reads it from the address bar (no origin, query or fragment). */
const PageSchema = z._default(
  z
    .string({ error: 'INVALID_REQUEST' })
    .check(z.maxLength(PAGE_MAX_LENGTH, 'INVALID_REQUEST'), z.regex(/^\/[^\s?#]*$/, 'INVALID_REQUEST')),
  '/',
);

export const VisitorMessageSchema = z.object({
  body: ChatMessageBodySchema,
  clientMessageId: ClientMessageIdSchema,
  page: PageSchema,
  language: z._default(z.enum(LANGUAGES, { error: 'INVALID_REQUEST' }), DEFAULT_LANGUAGE),
  /** Where replies go: asked for with the first message outside office hours. */
  email: z.optional(EmailSchema),
});

export const OperatorMessageSchema = z.object({ body: ChatMessageBodySchema, clientMessageId: ClientMessageIdSchema });

export const ChatEmailSchema = z.object({ email: EmailSchema });

export const ReadSchema = z.object({
  upTo: z.number({ error: 'INVALID_REQUEST' }).check(z.int('INVALID_REQUEST'), z.nonnegative('INVALID_REQUEST')),
});

export const BlockSchema = z.object({ blocked: z.boolean({ error: 'INVALID_REQUEST' }) });

export const ConversationListQuerySchema = z.object({
  status: z._default(z.enum(['open', 'closed'], { error: 'INVALID_REQUEST' }), 'open'),
});
