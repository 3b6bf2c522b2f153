import type { Context } from 'hono';
import { type Availability, CHAT_HOURS_API, type ChatSettings, type OperatorAlerts } from '#common/chat-hours.ts';
import { ChatSettingsSchema, OperatorAlertsSchema } from '#common/chat-hours-schemas.ts';
import { NoFieldsSchema } from '#common/fields.ts';
import { requireStaff } from '#server/features/accounts/index.ts';
import { ApiError } from '#server/http/api-error.ts';
import { newRoutes } from '#server/http/context.ts';
import { jsonBody } from '#server/http/json-body.ts';
import type { ChatDeps } from './chat-deps.ts';
import { CHAT_LIMITS } from './chat-limits.ts';
import { findConversation, operatorsOnline } from './chat-queries.ts';
import {
  readChatSettings,
  readOperatorAlerts,
  saveChatSettings,
  saveOperatorAlerts,
  typicalReplySeconds,
} from './chat-settings-queries.ts';
import { hoursAt } from './office-hours.ts';
import { noticeTyping, TypingThrottle } from './typing.ts';
import { identifyVisitor } from './visitor-identity.ts';

/** The typical reply time changes slowly: each instance reads it at most this often. */
const TYPICAL_CACHE_MS = 60_000;

/**
 * Office hours and alerts: what the widget asks when it opens (whether the team is there, when it
 * is back, how soon it usually answers), the admins' settings, each operator's own alert choices,
 * and the typing signal both ways, which is announced to every instance and never stored.
 */
export function chatHoursRoutes(deps: ChatDeps) {
  const { db, limiter, hub } = deps;
  const routes = newRoutes();
  // Chat settings and alerts concern those who answer chats: not editors (requireStaff's default).
  const desk = requireStaff(deps);
  const admins = requireStaff(deps, ['admin']);
  const throttle = new TypingThrottle();
  let typical: { at: number; seconds: number | null } | null = null;

  const typicalReply = async () => {
    if (!typical || Date.now() - typical.at > TYPICAL_CACHE_MS) {
      typical = { at: Date.now(), seconds: await typicalReplySeconds(db) };
    }
    return typical.seconds;
  };

  routes.get(CHAT_HOURS_API.availability, limiter.perClient('chat:reads', CHAT_LIMITS.readsPerClient), async (c) => {
    const settings = await readChatSettings(db);
    const state = settings.hoursEnabled ? hoursAt(new Date(), settings) : null;
    const online = (hub.knownOperators ?? (await operatorsOnline(db))).length > 0;
    return c.json({
      hours: settings.hoursEnabled,
      open: state?.open ?? true,
      closesAt: state?.closesAt?.toISOString() ?? null,
      nextOpen: state?.nextOpen?.toISOString() ?? null,
      typicalReplySeconds: await typicalReply(),
      operatorsOnline: online,
    } satisfies Availability);
  });

  routes.get(CHAT_HOURS_API.settings, desk, async (c) => c.json(await readChatSettings(db)));

  routes.post(CHAT_HOURS_API.settings, admins, jsonBody(ChatSettingsSchema), async (c) => {
    const settings: ChatSettings = c.req.valid('json');
    await saveChatSettings(db, settings);
    return c.json(await readChatSettings(db));
  });

  routes.get(CHAT_HOURS_API.myAlerts, desk, async (c) =>
    c.json((await readOperatorAlerts(db, c.var.staff.accountId)) satisfies OperatorAlerts),
  );

  routes.post(CHAT_HOURS_API.myAlerts, desk, jsonBody(OperatorAlertsSchema), async (c) => {
    await saveOperatorAlerts(db, c.var.staff.accountId, c.req.valid('json'));
    return c.json((await readOperatorAlerts(db, c.var.staff.accountId)) satisfies OperatorAlerts);
  });

  routes.post(CHAT_HOURS_API.typing, jsonBody(NoFieldsSchema), async (c) => {
    const { conversation } = await identifyVisitor(c, deps);
    if (!conversation) throw new ApiError(404, 'NOT_FOUND');
    if (!conversation.blocked && throttle.pass(`v${conversation.id}`)) {
      await noticeTyping(db, conversation.id, 'visitor');
    }
    return c.json({});
  });

  routes.post(CHAT_HOURS_API.operatorTyping(':id'), desk, jsonBody(NoFieldsSchema), async (c) => {
    const id = conversationIdOf(c);
    if (!(await findConversation(db, id))) throw new ApiError(404, 'NOT_FOUND');
    if (throttle.pass(`o${id}`)) await noticeTyping(db, id, 'operator');
    return c.json({});
  });

  return routes;
}

function conversationIdOf(c: Context): number {
  const raw = c.req.param('id') ?? '';
  if (!/^\d{1,15}$/.test(raw)) throw new ApiError(404, 'NOT_FOUND');
  return Number(raw);
}
