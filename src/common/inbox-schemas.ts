import { ReplyBodySchema } from './contact-schemas.ts';
import { DaySchema, dayRangeCheck, existsAsWritten } from './fields.ts';
import { MESSAGE_STATUSES, SETTABLE_STATUSES } from './inbox-api.ts';
import { LANGUAGES } from './languages.ts';
import { z } from './zod.ts';

/** Where the next page of the inbox starts: the time and id of the last message shown. */
const CURSOR = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z_[0-9a-f-]{36}$/;

export const MessagesQuerySchema = z
  .object({
    status: z._default(z.enum(['inbox', 'all', ...MESSAGE_STATUSES]), 'inbox'),
    language: z.optional(z.enum(LANGUAGES)),
    from: z.optional(DaySchema),
    to: z.optional(DaySchema),
    /** Control characters (a NUL cannot even reach the database) and lone surrogate halves are dropped. */
    q: z.optional(
      z.string().check(
        z.maxLength(200),
        z.overwrite((q) => q.replace(/\p{Cc}/gu, '').replace(/\p{Cs}/gu, '')),
      ),
    ),
    before: z.optional(
      z.string().check(
        z.regex(CURSOR),
        z.refine((cursor) => existsAsWritten(cursor.split('_')[0] ?? '', false)),
      ),
    ),
  })
  .check(dayRangeCheck());

export type MessagesQuery = z.infer<typeof MessagesQuerySchema>;

export const StatusSchema = z.object({ status: z.enum(SETTABLE_STATUSES) });
export const ReplySchema = z.object({ body: ReplyBodySchema });
