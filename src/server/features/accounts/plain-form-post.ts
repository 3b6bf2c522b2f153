import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '#common/languages.ts';
import type { PageId } from '#common/routes.ts';
import type { Deps } from '#server/deps.ts';
import { ApiError } from '#server/http/api-error.ts';
import type { AppEnv } from '#server/http/context.ts';
import { type FormAnswer, type FormMessage, formAnswerPage } from './form-answer-page.ts';

export const FORM_TYPE = 'application/x-www-form-urlencoded';
/** The account forms post either: JSON from the app, a plain form without JavaScript. */
export const FORM_OR_JSON = [FORM_TYPE, 'application/json'] as const;

const isFormPost = (c: Context) =>
  (c.req.header('Content-Type') ?? '').split(';')[0]?.trim().toLowerCase() === FORM_TYPE;

/**
 * A page's address with the visitor's email address in its fragment, as mailed links carry it:
 * the app fills it in once it runs (client/features/accounts/mail-link.ts); the server never sees it.
 */
export const withAddress = (path: string, email: string) => `${path}#${new URLSearchParams({ email })}`;

/** Where a plain post goes once the call succeeded: a page to redirect to, or a message on the form's page. */
export type FormOutcome = { redirect: string } | { status: 403; message: FormMessage };

export interface PlainForm<A> {
  /** The page the form is on: a refused post is answered with it. */
  page: PageId;
  /** Checkboxes among the fields: sent means true, as the app sends them. */
  checkboxes?: readonly string[];
  /** What the browser gets when the call answered `answer`. */
  outcome: (answer: A, language: Language, sent: Record<string, string>) => FormOutcome;
}

/**
 * Lets a JSON endpoint of the account forms take the same form posted by a browser without
 * JavaScript (docs/decisions/125). Placed before the route's own checks: the fields become the
 * JSON the app would send, and everything after (visitor check, schema, limits, the handler) runs
 * unchanged. Its answer then becomes a page: a success a 303 redirect (with the cookies the handler
 * set, a session's above all), a refusal the form's page with the error in it, with its status.
 * The Origin check ran before, as for every post; JSON goes through untouched.
 */
export function plainFormPost<A>(deps: Deps, form: PlainForm<A>) {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (!isFormPost(c)) return next();
    const sent: Record<string, string> = {};
    // An empty field counts as not sent, as in the app's JSON.
    for (const [name, value] of new URLSearchParams(await c.req.raw.text())) if (value !== '') sent[name] = value;
    const language = isLanguage(sent.language) ? sent.language : DEFAULT_LANGUAGE;
    const body: Record<string, unknown> = { ...sent };
    for (const name of form.checkboxes ?? []) body[name] = name in sent;
    const headers = new Headers(c.req.raw.headers);
    headers.set('Content-Type', 'application/json');
    headers.delete('Content-Length');
    c.req.raw = new Request(c.req.raw.url, { method: c.req.method, headers, body: JSON.stringify(body) });

    await next();

    const page = (status: number, message: FormMessage) => {
      const answer: FormAnswer = { page: form.page, language, values: sent, message };
      const { html, policy } = formAnswerPage(deps.pages, deps.site, deps.texts, answer);
      // Assigned, not returned: the headers of the answer it replaces (cookies, Retry-After) stay.
      c.res = new Response(html, {
        status,
        headers: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': policy },
      });
    };
    if (c.error) {
      if (!(c.error instanceof ApiError)) return;
      const retryAfter = Number(c.error.headers?.['Retry-After']);
      const details = { code: c.error.code, ...(retryAfter > 0 ? { retryAfter } : {}) };
      page(c.error.status, { kind: 'error', details, fields: c.error.fields });
      return;
    }
    const outcome = form.outcome((await c.res.clone().json()) as A, language, sent);
    if ('redirect' in outcome) c.res = new Response(null, { status: 303, headers: { Location: outcome.redirect } });
    else page(outcome.status, outcome.message);
  });
}
