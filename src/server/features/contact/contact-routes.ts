import type { Context } from 'hono';
import { CONTACT_API, type ContactAnswer, type FormTokenAnswer } from '#common/contact-api.ts';
import { contactMessageSchema } from '#common/contact-schemas.ts';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '#common/languages.ts';
import { matchPage, pagePath } from '#common/routes.ts';
import type { Deps } from '#server/deps.ts';
import { readSession } from '#server/features/accounts/index.ts';
import { ApiError } from '#server/http/api-error.ts';
import { type AppEnv, newRoutes } from '#server/http/context.ts';
import { fieldErrors, readJson } from '#server/http/json-body.ts';
import { enqueue } from '#server/platform/jobs/jobs.ts';
import { notificationMail } from './contact-mail.ts';
import { CONTACT_MAIL_JOB, insertContactMessage } from './contact-queries.ts';
import { checkFormToken, issueFormToken } from './form-token.ts';
import { addressHits, contactPerClient } from './limits.ts';
import { notSentPage } from './no-script-page.ts';
import { spamReason } from './spam.ts';

const FORM_TYPE = 'application/x-www-form-urlencoded';
const isFormPost = (c: Context) =>
  (c.req.header('Content-Type') ?? '').split(';')[0]?.trim().toLowerCase() === FORM_TYPE;

/** A plain form's fields as strings; an empty field counts as not sent, as it would be in JSON. */
async function readForm(c: Context): Promise<Record<string, string>> {
  const body = await c.req.parseBody();
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) if (typeof value === 'string' && value !== '') fields[name] = value;
  return fields;
}

/** The language to answer a plain form post in: the one it names, else its page's, else the default. */
function languageOf(raw: Record<string, unknown>): Language {
  if (isLanguage(raw.language)) return raw.language;
  const page = typeof raw.page === 'string' ? matchPage(raw.page) : null;
  return page?.language ?? DEFAULT_LANGUAGE;
}

/**
 * The contact form. The same endpoint takes the page's JSON (answered with JSON; the page shows a
 * toast) and, without JavaScript, the plain form post (answered with a redirect to the translated
 * confirmation page, or a short page saying what to change). A message that looks like spam is
 * stored as spam and answered exactly like any other, and nobody is mailed about it.
 */
export function contactRoutes(deps: Deps) {
  const { db, secret, limiter, settings } = deps;
  const routes = newRoutes();
  const schema = contactMessageSchema(deps.site.contact.subjects);
  const team = settings.contactEmail ?? `hello@${deps.site.brand.domain}`;

  routes.get(CONTACT_API.formToken, (c) => c.json({ token: issueFormToken(secret) } satisfies FormTokenAnswer));

  const receive = async (c: Context<AppEnv>, raw: Record<string, unknown>, sentByScript: boolean) => {
    await limiter.enforce([
      { name: 'contactPerClient', limit: contactPerClient(settings.contactRateLimit), subject: c.var.clientAddress },
    ]);
    const parsed = schema.safeParse(raw);
    if (!parsed.success) throw new ApiError(400, 'VALIDATION_ERROR', { fields: fieldErrors(parsed.error.issues) });
    const input = parsed.data;
    await limiter.enforce(addressHits(input.email));
    const reason = spamReason(input, input.token ? checkFormToken(secret, input.token) : null, sentByScript);
    const session = await readSession(c, db, settings.sessionIdleSeconds);
    // The message and the team's notice are stored together: a mail server that is down delays
    // the notice and loses nothing.
    await db.transaction(async (tx) => {
      const stored = await insertContactMessage(tx, {
        language: input.language,
        page: input.page ?? null,
        name: input.name,
        email: input.email,
        subject: input.subject,
        body: input.message,
        spamReason: reason,
        accountId: session.kind === 'active' ? session.accountId : null,
      });
      if (reason) return;
      const mail = notificationMail(
        deps.site,
        deps.texts,
        { email: team, language: settings.contactLanguage },
        { ...stored, ...input, body: input.message, page: input.page ?? null, status: 'new' },
      );
      await enqueue(tx, CONTACT_MAIL_JOB, { messageId: stored.id, mail });
    });
    return input.language;
  };

  routes.post(CONTACT_API.messages, async (c) => {
    if (!isFormPost(c)) {
      const raw = await readJson(c);
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ApiError(400, 'INVALID_REQUEST');
      await receive(c, raw as Record<string, unknown>, true);
      return c.json({ status: 'received' } satisfies ContactAnswer, 202);
    }
    const raw = await readForm(c);
    try {
      const language = await receive(c, raw, false);
      return c.redirect(pagePath(language, 'contactSent'), 303);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const page = notSentPage(deps.site, deps.texts, languageOf(raw), error);
      return c.html(page, error.status, error.headers);
    }
  });

  return routes;
}
