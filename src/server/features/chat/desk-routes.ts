import type { Context } from 'hono';
import {
  CHAT_DESK_API,
  type QualityAnswer,
  type SavedRepliesAnswer,
  type SavedReply,
  type TeamAnswer,
} from '#common/chat-desk-api.ts';
import { AssignSchema, QualityQuerySchema, SavedReplySchema } from '#common/chat-desk-schemas.ts';
import { OperatorMessageSchema } from '#common/chat-schemas.ts';
import { NoFieldsSchema } from '#common/fields.ts';
import { requireStaff } from '#server/features/accounts/index.ts';
import { ApiError } from '#server/http/api-error.ts';
import { newRoutes } from '#server/http/context.ts';
import { jsonBody, queryParams } from '#server/http/json-body.ts';
import { queueMail } from '#server/platform/mail/mail-queue.ts';
import type { ChatDeps } from './chat-deps.ts';
import { chatHit } from './chat-limits.ts';
import {
  chatWrite,
  conversationSummary,
  findConversation,
  findMessageByClientId,
  insertChatMessage,
  noticeConversation,
  touchConversation,
} from './chat-queries.ts';
import { assignedMail } from './desk-mail.ts';
import {
  deleteSavedReply,
  insertSavedReply,
  listSavedReplies,
  listTeam,
  setAssignee,
  teamMember,
  updateSavedReply,
} from './desk-queries.ts';
import { chatQuality } from './ending-queries.ts';

/** Weeks the analytics page shows when it does not say. */
const QUALITY_WEEKS = 8;

/** A positive integer path parameter, else what it names does not exist. */
function idParam(c: Context): number {
  const raw = c.req.param('id') ?? '';
  if (!/^\d{1,15}$/.test(raw)) throw new ApiError(404, 'NOT_FOUND');
  return Number(raw);
}

/**
 * The team's tools around the chat: saved replies (kept by admins, used by every operator),
 * handing a conversation to someone, and internal notes in the thread that the visitor's side
 * never reads (chat-queries.ts, VISIBLE_TO_VISITOR).
 */
export function chatDeskRoutes(deps: ChatDeps) {
  const { db, limiter } = deps;
  const routes = newRoutes();
  const staff = requireStaff(deps);
  const admin = requireStaff(deps, ['admin']);

  const summary = async (id: number) => {
    const row = await conversationSummary(db, id);
    if (!row) throw new ApiError(404, 'NOT_FOUND');
    return row;
  };

  routes.get(CHAT_DESK_API.savedReplies, staff, async (c) =>
    c.json({ savedReplies: await listSavedReplies(db) } satisfies SavedRepliesAnswer),
  );

  routes.post(CHAT_DESK_API.savedReplies, admin, jsonBody(SavedReplySchema), async (c) => {
    const saved = await insertSavedReply(db, c.req.valid('json'));
    if (!saved) throw new ApiError(409, 'SAVED_REPLY_EXISTS', { fields: { shortcut: 'SAVED_REPLY_EXISTS' } });
    return c.json({ savedReply: saved } satisfies { savedReply: SavedReply }, 201);
  });

  routes.post(CHAT_DESK_API.savedReply(':id'), admin, jsonBody(SavedReplySchema), async (c) => {
    const result = await updateSavedReply(db, idParam(c), c.req.valid('json'));
    if (result === 'missing') throw new ApiError(404, 'NOT_FOUND');
    if (result === 'taken')
      throw new ApiError(409, 'SAVED_REPLY_EXISTS', { fields: { shortcut: 'SAVED_REPLY_EXISTS' } });
    return c.json({ savedReply: result } satisfies { savedReply: SavedReply });
  });

  routes.post(CHAT_DESK_API.deleteSavedReply(':id'), admin, jsonBody(NoFieldsSchema), async (c) => {
    if (!(await deleteSavedReply(db, idParam(c)))) throw new ApiError(404, 'NOT_FOUND');
    return c.json({});
  });

  routes.get(CHAT_DESK_API.team, staff, async (c) => c.json({ team: await listTeam(db) } satisfies TeamAnswer));

  // The colleague is told twice: live, by the change every console stream sends, and by a mail
  // through the jobs, for when their console is closed. Taking a conversation oneself mails nobody.
  routes.post(CHAT_DESK_API.assign(':id'), staff, jsonBody(AssignSchema), async (c) => {
    const id = idParam(c);
    const actor = c.get('staff');
    const { assignee } = c.req.valid('json');
    const conversation = await findConversation(db, id);
    if (!conversation) throw new ApiError(404, 'NOT_FOUND');
    const member = assignee ? await teamMember(db, assignee) : null;
    if (assignee && !member) throw new ApiError(400, 'INVALID_ASSIGNEE', { fields: { assignee: 'INVALID_ASSIGNEE' } });
    await chatWrite(db, async (tx) => {
      await setAssignee(tx, id, assignee);
      await touchConversation(tx, id);
      await noticeConversation(tx, id);
      if (member && member.id !== actor.accountId && member.id !== conversation.assigneeId) {
        const visitor = await conversationSummary(tx, id);
        await queueMail(tx, assignedMail(deps, member, actor.name, id, visitor));
      }
    });
    return c.json({ conversation: await summary(id) });
  });

  routes.post(CHAT_DESK_API.note(':id'), staff, jsonBody(OperatorMessageSchema), async (c) => {
    const id = idParam(c);
    const operator = c.get('staff');
    const input = c.req.valid('json');
    if (!(await findConversation(db, id))) throw new ApiError(404, 'NOT_FOUND');
    const known = await findMessageByClientId(db, id, input.clientMessageId);
    if (!known) await limiter.enforce([chatHit('operatorMessages', operator.accountId)]);
    // A note is no activity for the visitor: the conversation keeps its place and status, and moves
    // only so that every console stream sends it.
    const stored =
      known ??
      (await chatWrite(db, async (tx) => {
        const note = await insertChatMessage(tx, {
          conversationId: id,
          author: 'note',
          operatorId: operator.accountId,
          ...input,
        });
        if (!note) return null;
        await touchConversation(tx, id);
        await noticeConversation(tx, id);
        return note;
      })) ??
      (await findMessageByClientId(db, id, input.clientMessageId));
    if (!stored) throw new Error('Chat note neither stored nor found');
    return c.json(
      { message: { ...stored, conversationId: id, operatorName: operator.name }, conversation: await summary(id) },
      known ? 200 : 201,
    );
  });

  routes.get(CHAT_DESK_API.quality, staff, queryParams(QualityQuerySchema), async (c) => {
    const weeks = Number(c.req.valid('query').weeks ?? QUALITY_WEEKS);
    return c.json((await chatQuality(db, weeks)) satisfies QualityAnswer);
  });

  return routes;
}
