import { escapeHtml } from '#common/html.ts';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language, type Texts } from '#common/languages.ts';
import { consolePath } from '#common/routes.ts';
import type { SiteConfig } from '#common/site-config.ts';
import type { Queryable } from '#server/platform/db/database.ts';
import { enqueue, type JobDefinitions } from '#server/platform/jobs/jobs.ts';
import { queueMail } from '#server/platform/mail/mail-queue.ts';
import type { Mail } from '#server/platform/mail/mailer.ts';
import { PRESENCE_FRESH_SECONDS } from './chat-queries.ts';
import { readChatSettings } from './chat-settings-queries.ts';
import { hoursAt } from './office-hours.ts';

const WAITING_ALERT = 'chat.waiting-alert';
/** How much of the visitor's message the mail quotes. */
const EXCERPT_LENGTH = 300;

type AlertKey = 'subject' | 'intro_one' | 'intro_other' | 'visitor' | 'message' | 'link' | 'why';
/** Thai has no `_one`: its `_other` says every count. */
const KEYS: AlertKey[] = ['subject', 'intro_one', 'intro_other', 'visitor', 'message', 'link', 'why'];
type AlertTexts = Record<AlertKey, string>;

interface WaitingAlertJob {
  conversationId: number;
  /** The visitor's message that began the wait; any reply from the team after it ends the wait. */
  messageId: number;
  minutes: number;
  consoleUrl: string;
  /** The mail's texts in every language, brand filled in: each operator reads it in their own. */
  texts: Partial<Record<Language, AlertTexts>>;
}

function alertTexts(site: SiteConfig, texts: Texts): Partial<Record<Language, AlertTexts>> {
  const fill = (text: string) =>
    text.replace(/\{\{\s*(siteName|domain)\s*\}\}/g, (_, key: 'siteName' | 'domain') => site.brand[key]);
  const all: Partial<Record<Language, AlertTexts>> = {};
  for (const language of LANGUAGES) {
    const mail = (texts[language]?.chat as { alertMail?: Record<string, string> } | undefined)?.alertMail;
    if (mail) all[language] = Object.fromEntries(KEYS.map((key) => [key, fill(mail[key] ?? '')])) as AlertTexts;
  }
  return all;
}

/**
 * Called in the transaction of a visitor's message: when it begins a wait (the conversation's
 * previous message was not the visitor's) and the team was never alerted about this conversation,
 * a job looks again after the admins' delay.
 */
export async function scheduleWaitingAlert(
  tx: Queryable,
  deps: { site: SiteConfig; texts: Texts },
  conversationId: number,
  messageId: number,
): Promise<void> {
  const [state] = await tx.query<{ alerted: boolean; previous: string | null; seconds: number }>(
    `SELECT c.waiting_alert_at IS NOT NULL AS alerted,
       (SELECT author FROM chat_messages m WHERE m.conversation_id = c.id AND m.id < $2 ORDER BY m.id DESC LIMIT 1) AS previous,
       (SELECT alert_after_seconds FROM chat_settings) AS seconds
     FROM chat_conversations c WHERE c.id = $1`,
    [conversationId, messageId],
  );
  if (!state || state.alerted || state.previous === 'visitor') return;
  const job: WaitingAlertJob = {
    conversationId,
    messageId,
    minutes: Math.round(state.seconds / 60),
    consoleUrl: `${deps.site.siteUrl}${consolePath('chat')}`,
    texts: alertTexts(deps.site, deps.texts),
  };
  await enqueue(tx, WAITING_ALERT, job, { delaySeconds: state.seconds });
}

interface Recipient {
  email: string;
  language: string;
}

/**
 * The operators on duty: those with the console open now; when nobody has it open, every operator
 * and admin, so that a wait is never told to no one.
 */
async function operatorsOnDuty(tx: Queryable): Promise<Recipient[]> {
  const online = await tx.query<Recipient>(
    `SELECT DISTINCT a.email, a.language FROM chat_presence p JOIN accounts a ON a.id = p.account_id
     WHERE p.seen_at > statement_timestamp() - $1::integer * interval '1 second' AND a.role IN ('operator', 'admin')`,
    [PRESENCE_FRESH_SECONDS],
  );
  if (online.length > 0) return online;
  return tx.query<Recipient>(
    `SELECT email, language FROM accounts WHERE role IN ('operator', 'admin') AND verified_at IS NOT NULL`,
  );
}

function waitingMail(to: Recipient, job: WaitingAlertJob, who: string, excerpt: string): Mail | null {
  const language = isLanguage(to.language) && job.texts[to.language] ? to.language : DEFAULT_LANGUAGE;
  const t = job.texts[language];
  if (!t) return null;
  const vars: Record<string, string> = { count: String(job.minutes), visitor: who };
  const fill = (text: string) => text.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, key: string) => vars[key] ?? match);
  const intro = fill(job.minutes === 1 && t.intro_one ? t.intro_one : t.intro_other);
  const text = [
    intro,
    '',
    `${t.message}`,
    ...excerpt.split('\n').map((line) => `  ${line}`),
    '',
    t.link,
    job.consoleUrl,
    '',
    t.why,
    '',
  ].join('\n');
  const html = `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><title>${escapeHtml(fill(t.subject))}</title></head>
<body style="font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans','Noto Sans Thai',Tahoma,sans-serif;line-height:1.6;color:#1a1d23">
<p>${escapeHtml(intro)}</p>
<p>${escapeHtml(t.message)}</p>
<blockquote style="margin:0 0 16px;padding:8px 12px;background:#eef2f7;border-radius:8px;white-space:pre-wrap">${escapeHtml(excerpt)}</blockquote>
<p><a href="${escapeHtml(job.consoleUrl)}">${escapeHtml(t.link)}</a></p>
<p style="color:#555">${escapeHtml(t.why)}</p>
</body></html>
`;
  return { to: to.email, language, subject: fill(t.subject), text, html };
}

/**
 * Mails the operators on duty that a visitor has waited, once per conversation: the row is locked,
 * and `waiting_alert_at` set in the same transaction as the mails are queued, so two instances (or
 * two jobs of one conversation) send one alert. Nothing is sent once the team has answered, the
 * conversation is closed or blocked, or outside office hours (the visitor was told when the team
 * is back and asked for an address).
 */
async function alertIfStillWaiting(tx: Queryable, job: WaitingAlertJob): Promise<void> {
  const [row] = await tx.query<{
    alerted: boolean;
    open: boolean;
    id: number;
    email: string | null;
    name: string | null;
  }>(
    `SELECT c.waiting_alert_at IS NOT NULL AS alerted,
       c.status = 'open' AND NOT c.blocked AND c.visitor_ended_at IS NULL AS open, c.id,
       coalesce(c.visitor_email, a.email) AS email, a.name
     FROM chat_conversations c LEFT JOIN accounts a ON a.id = c.account_id WHERE c.id = $1 FOR UPDATE OF c`,
    [job.conversationId],
  );
  if (!row || row.alerted || !row.open) return;
  const answered = await tx.query(
    `SELECT 1 FROM chat_messages WHERE conversation_id = $1 AND author = 'operator' AND id > $2 LIMIT 1`,
    [job.conversationId, job.messageId],
  );
  if (answered.length > 0) return;
  const settings = await readChatSettings(tx);
  if (settings.hoursEnabled && !hoursAt(new Date(), settings).open) return;
  const [message] = await tx.query<{ body: string }>(
    `SELECT left(body, ${EXCERPT_LENGTH}) AS body FROM chat_messages WHERE id = $1`,
    [job.messageId],
  );
  const recipients = await operatorsOnDuty(tx);
  for (const recipient of recipients) {
    const language = isLanguage(recipient.language) ? recipient.language : DEFAULT_LANGUAGE;
    const fallback = (job.texts[language] ?? job.texts[DEFAULT_LANGUAGE])?.visitor ?? '';
    const who = row.name ?? row.email ?? fallback.replace(/\{\{\s*id\s*\}\}/g, String(row.id));
    const mail = waitingMail(recipient, job, who, message?.body ?? '');
    if (mail) await queueMail(tx, mail);
  }
  await tx.query('UPDATE chat_conversations SET waiting_alert_at = statement_timestamp() WHERE id = $1', [
    job.conversationId,
  ]);
}

export const waitingAlertJobs: JobDefinitions = {
  [WAITING_ALERT]: {
    run: (payload, { db }) => db.transaction((tx) => alertIfStillWaiting(tx, payload as WaitingAlertJob)),
  },
};
