import { isUuid, NoFieldsSchema } from '#common/fields.ts';
import { INBOX_API } from '#common/inbox-api.ts';
import { MessagesQuerySchema, ReplySchema, StatusSchema } from '#common/inbox-schemas.ts';
import type { Deps } from '#server/deps.ts';
import { requireStaff } from '#server/features/accounts/index.ts';
import { ApiError } from '#server/http/api-error.ts';
import { newRoutes } from '#server/http/context.ts';
import { jsonBody, queryParams } from '#server/http/json-body.ts';
import { enqueue } from '#server/platform/jobs/jobs.ts';
import { answerMail } from './contact-mail.ts';
import {
  CONTACT_MAIL_JOB,
  deleteMessage,
  findMessage,
  getMessage,
  insertReply,
  listMessages,
  setMessageStatus,
} from './contact-queries.ts';
import { CONTACT_LIMITS } from './limits.ts';

const notFound = () => new ApiError(404, 'NOT_FOUND');

/** The id in the path, when it can name a message at all. */
const messageId = (id: string) => {
  if (!isUuid(id)) throw notFound();
  return id.toLowerCase();
};

/**
 * The console's inbox: operators and admins list, search and read messages, change their status,
 * answer them by mail (through the jobs, kept in the thread) and delete them. Every change is
 * recorded with who made it.
 */
export function inboxRoutes(deps: Deps) {
  const { db, limiter } = deps;
  const routes = newRoutes();
  const team = deps.settings.contactEmail ?? `hello@${deps.site.brand.domain}`;
  const staff = requireStaff(deps);

  routes.get(INBOX_API.messages, staff, queryParams(MessagesQuerySchema), async (c) =>
    c.json(await listMessages(db, c.req.valid('query'))),
  );

  routes.get(INBOX_API.message, staff, async (c) => {
    const detail = await getMessage(db, messageId(c.req.param('id')));
    if (!detail) throw notFound();
    return c.json(detail);
  });

  routes.post(INBOX_API.status, staff, jsonBody(StatusSchema), async (c) => {
    const id = messageId(c.req.param('id'));
    const { status } = c.req.valid('json');
    const now = await db.transaction((tx) => setMessageStatus(tx, id, status, c.var.staff.accountId));
    if (!now) throw notFound();
    return c.json({ status: now });
  });

  routes.post(INBOX_API.reply, staff, jsonBody(ReplySchema), async (c) => {
    const id = messageId(c.req.param('id'));
    const { accountId, name } = c.var.staff;
    await limiter.enforce([{ name: 'repliesPerStaff', limit: CONTACT_LIMITS.repliesPerStaff, subject: accountId }]);
    const { body } = c.req.valid('json');
    const reply = await db.transaction(async (tx) => {
      const message = await findMessage(tx, id, true);
      if (!message) throw notFound();
      // The address of a message taken for spam may be anyone's: it is mailed only once staff say it is not spam.
      if (message.status === 'spam') throw new ApiError(403, 'FORBIDDEN');
      const stored = await insertReply(tx, id, accountId, body);
      const mail = answerMail(deps.site, deps.texts, team, message, { body, author: name });
      await enqueue(tx, CONTACT_MAIL_JOB, { messageId: id, replyId: stored.id, mail });
      return stored;
    });
    return c.json({ id: reply.id }, 201);
  });

  routes.post(INBOX_API.remove, staff, jsonBody(NoFieldsSchema), async (c) => {
    const id = messageId(c.req.param('id'));
    const deleted = await db.transaction((tx) => deleteMessage(tx, id, c.var.staff.accountId));
    if (!deleted) throw notFound();
    return c.json({});
  });

  return routes;
}
