import type { AnalyticsAnswer, AnalyticsHeadline, AnalyticsRow } from '#common/analytics-api.ts';
import { changeOf, HEADLINE_MEASURES, headlineFormat, languageNameFormat } from '#common/analytics-format.ts';
import { escapeHtml } from '#common/html.ts';
import { DEFAULT_LANGUAGE, isLanguage, type Language, type Texts } from '#common/languages.ts';
import { consolePath } from '#common/routes.ts';
import type { SiteConfig } from '#common/site-config.ts';
import { fill, headerSafe, mailHtml, paragraphs } from '#server/platform/mail/mail-text.ts';
import type { Mail } from '#server/platform/mail/mailer.ts';
import { textAt } from '#server/platform/site-config.ts';
import type { DueReport, Hour } from './report-schedule.ts';

/** Rows of each list in a mail: enough to see what stood out, short enough to read on a phone. */
export const MAIL_TOP = 5;

/** Who a mail goes to: an admin, in the language of their account. */
export interface Recipient {
  name: string;
  email: string;
  language: string;
}

/** What the mails are written with: the brand and public address in force, and the published texts. */
export interface MailSite {
  site: SiteConfig;
  texts: Texts;
}

/** The console's texts in the recipient's language, brand and values filled in, and its number formats. */
function writer({ site, texts }: MailSite, to: Recipient) {
  const language: Language = isLanguage(to.language) ? to.language : DEFAULT_LANGUAGE;
  const t = (key: string, values: Record<string, string> = {}) =>
    fill(textAt(texts, language, 'console', key), { ...site.brand, name: to.name, ...values });
  const whole = new Intl.NumberFormat(language);
  const { measure, change } = headlineFormat(language);
  const languageName = languageNameFormat(language);
  // A calendar day of the site's time zone, written as a day (it is a wall-clock date: read in UTC).
  const days = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' });
  return {
    language,
    t,
    whole: (value: number) => whole.format(value),
    day: (date: string) => days.format(new Date(`${date}T00:00:00Z`)),
    measure,
    change,
    /** A page language as the console's legend names it: "Thai (ไทย)" for an English reader. */
    languageName: (code: string) => (code ? languageName(code) : t('analytics.none.other')),
  };
}

type Writer = ReturnType<typeof writer>;

/** A list of the mail: a heading and "label: number" rows, as HTML and as text. */
interface List {
  title: string;
  labelColumn: string;
  valueColumn: string;
  rows: { label: string; value: string }[];
}

function listText(list: List, empty: string): string {
  const rows = list.rows.length ? list.rows.map((row) => `  ${row.label}: ${row.value}`) : [`  ${empty}`];
  return [`${list.title} (${list.valueColumn})`, ...rows].join('\n');
}

const CELL = 'padding:6px 8px;border-bottom:1px solid #e3e7ee;text-align:left';

function listHtml(list: List, empty: string): string {
  const rows = list.rows.length
    ? list.rows
        .map(
          (row) =>
            `<tr><td style="${CELL};word-break:break-all">${escapeHtml(row.label)}</td><td style="${CELL};text-align:right">${escapeHtml(row.value)}</td></tr>`,
        )
        .join('\n')
    : `<tr><td style="${CELL}" colspan="2">${escapeHtml(empty)}</td></tr>`;
  return `<h2 style="font-size:1.1rem;margin:24px 0 8px">${escapeHtml(list.title)}</h2>
<table style="border-collapse:collapse;width:100%">
<thead><tr><th style="${CELL}" scope="col">${escapeHtml(list.labelColumn)}</th><th style="${CELL};text-align:right" scope="col">${escapeHtml(list.valueColumn)}</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`;
}

const pageList = (w: Writer, rows: AnalyticsRow[]): List => ({
  title: w.t('analytics.breakdowns.page.title'),
  labelColumn: w.t('analytics.breakdowns.page.column'),
  valueColumn: w.t('analytics.viewsColumn'),
  rows: rows.slice(0, MAIL_TOP).map((row) => ({ label: row.key || '/', value: w.whole(row.views) })),
});

const languageList = (w: Writer, rows: AnalyticsRow[]): List => ({
  title: w.t('analytics.breakdowns.language.title'),
  labelColumn: w.t('analytics.breakdowns.language.column'),
  valueColumn: w.t('analytics.viewsColumn'),
  rows: rows.slice(0, MAIL_TOP).map((row) => ({ label: w.languageName(row.key), value: w.whole(row.views) })),
});

/** The headline numbers, each with its change against the previous period, as text lines and table rows. */
function headline(w: Writer, current: AnalyticsHeadline, previous: AnalyticsHeadline) {
  return HEADLINE_MEASURES.map((name) => {
    const difference = changeOf(current[name], previous[name]);
    return {
      label: w.t(`analytics.headline.${name}`),
      value: w.measure(name, current[name]),
      change:
        difference === null
          ? w.t('analytics.noComparison')
          : w.t('analytics.change', { change: w.change(difference), before: w.measure(name, previous[name]) }),
    };
  });
}

function linkHtml(url: string, label: string): string {
  return `<p style="margin:24px 0 16px"><a href="${escapeHtml(url)}" style="color:#1d4ed8">${escapeHtml(label)}</a></p>`;
}

const consoleLink = (site: SiteConfig, query: string) => `${site.siteUrl}${consolePath('analytics', { query })}`;

/**
 * The weekly or monthly report (decision 210): the headline numbers with their change against the
 * period just before, the top pages and page languages, and a link to the console, in the admin's
 * language. Plain HTML without a remote image, and the same as text.
 */
export function reportMail(
  mailSite: MailSite,
  to: Recipient,
  due: DueReport,
  answer: Omit<AnalyticsAnswer, 'posthogHost'>,
): Mail {
  const w = writer(mailSite, to);
  const dates = {
    from: w.day(answer.from),
    to: w.day(answer.to),
    previousFrom: w.day(answer.previousFrom),
    previousTo: w.day(answer.previousTo),
    zone: answer.timeZone,
  };
  const subject = headerSafe(w.t(`analyticsMail.report.subject.${due.kind}`, dates));
  const intro = w.t('analyticsMail.report.intro', dates);
  const numbers = headline(w, answer.headline, answer.previousHeadline);
  const lists = [pageList(w, answer.breakdowns.page), languageList(w, answer.breakdowns.language)];
  const empty = w.t('analytics.nothing');
  const link = consoleLink(mailSite.site, `?from=${answer.from}&to=${answer.to}`);
  const text = [
    w.t('analyticsMail.hello'),
    '',
    intro,
    '',
    ...numbers.map((row) => `${row.label}: ${row.value} (${row.change})`),
    '',
    ...lists.flatMap((list) => [listText(list, empty), '']),
    w.t('analyticsMail.report.consent'),
    '',
    `${w.t('analyticsMail.open')}: ${link}`,
    '',
    w.t(`analyticsMail.report.why.${due.kind}`),
    '',
  ].join('\n');
  const headlineHtml = `<table style="border-collapse:collapse;width:100%">
<tbody>
${numbers
  .map(
    (row) =>
      `<tr><th scope="row" style="${CELL};font-weight:normal">${escapeHtml(row.label)}</th><td style="${CELL};text-align:right;font-weight:600;white-space:nowrap">${escapeHtml(row.value)}</td><td style="${CELL};color:#4b5563">${escapeHtml(row.change)}</td></tr>`,
  )
  .join('\n')}
</tbody>
</table>`;
  const html = mailHtml(
    w.language,
    subject,
    [
      paragraphs(w.t('analyticsMail.hello')),
      paragraphs(intro),
      headlineHtml,
      ...lists.map((list) => listHtml(list, empty)),
      `<p style="margin:24px 0 0;color:#4b5563">${escapeHtml(w.t('analyticsMail.report.consent'))}</p>`,
      linkHtml(link, w.t('analyticsMail.open')),
      `<p style="margin:0;color:#4b5563">${escapeHtml(w.t(`analyticsMail.report.why.${due.kind}`))}</p>`,
    ].join('\n'),
  );
  return { to: to.email, language: w.language, subject, text, html };
}

/** What an alert tells: the hour, its visits, the usual level and the multiple crossed, and its top pages. */
export interface Spike {
  hour: Hour;
  /** Whether the hour is still under way when the mail is written. */
  running: boolean;
  visits: number;
  usual: number;
  multiple: number;
  pages: AnalyticsRow[];
  timeZone: string;
}

/** The alert of an hour with far more visits than usual (decision 210), in the admin's language. */
export function alertMail(mailSite: MailSite, to: Recipient, spike: Spike): Mail {
  const w = writer(mailSite, to);
  const time = new Intl.DateTimeFormat(w.language, { timeStyle: 'short', timeZone: spike.timeZone });
  const values = {
    visits: w.whole(spike.visits),
    usual: w.whole(Math.round(spike.usual)),
    multiple: new Intl.NumberFormat(w.language, { maximumFractionDigits: 1 }).format(spike.multiple),
    day: w.day(spike.hour.from),
    start: time.format(spike.hour.start),
    end: time.format(spike.hour.end),
    zone: spike.timeZone,
  };
  const subject = headerSafe(w.t('analyticsMail.alert.subject', values));
  const intro = w.t(spike.running ? 'analyticsMail.alert.running' : 'analyticsMail.alert.ended', values);
  const list: List = { ...pageList(w, spike.pages), title: w.t('analyticsMail.alert.pages') };
  const empty = w.t('analytics.nothing');
  const link = consoleLink(mailSite.site, '?period=today');
  const text = [
    w.t('analyticsMail.hello'),
    '',
    intro,
    '',
    listText(list, empty),
    '',
    `${w.t('analyticsMail.open')}: ${link}`,
    '',
    w.t('analyticsMail.alert.why'),
    '',
  ].join('\n');
  const html = mailHtml(
    w.language,
    subject,
    [
      paragraphs(w.t('analyticsMail.hello')),
      paragraphs(intro),
      listHtml(list, empty),
      linkHtml(link, w.t('analyticsMail.open')),
      `<p style="margin:0;color:#4b5563">${escapeHtml(w.t('analyticsMail.alert.why'))}</p>`,
    ].join('\n'),
  );
  return { to: to.email, language: w.language, subject, text, html };
}
