import type { AnalyticsAnswer } from '#common/analytics-api.ts';
import { RETENTION } from '#common/retention.ts';
import { readChatSettings, wallClock } from '#server/features/chat/index.ts';
import type { Database, Queryable } from '#server/platform/db/database.ts';
import type { JobContext, JobDefinitions } from '#server/platform/jobs/jobs.ts';
import { queueMail } from '#server/platform/mail/mail-queue.ts';
import { dashboard } from './dashboard.ts';
import type { Span } from './periods.ts';
import { alertMail, type MailSite, type Recipient, reportMail } from './report-mail.ts';
import { alertHours, dueReport, isSpike, sameHourBefore, USUAL_FLOOR, usualLevel } from './report-schedule.ts';

/** Alerts an admin gets in a day of the site at most. */
export const ALERTS_PER_DAY = 2;

type Answer = Omit<AnalyticsAnswer, 'posthogHost'>;

interface Admin extends Recipient {
  id: string;
}

function mailSiteOf(context: JobContext): MailSite {
  if (!context.site || !context.texts)
    throw new Error('Analytics mail needs the site and its texts in the job context');
  return { site: context.site, texts: context.texts };
}

/** The site's calendar day at `now`, in its time zone. */
const siteDay = (now: Date, timeZone: string) =>
  new Date(wallClock(now.getTime(), timeZone)).toISOString().slice(0, 10);

/**
 * Notes a mail as sent and queues it, in one transaction: the key (admin, kind, period) lets one
 * through however many instances get there, and the mail exists exactly when its note does.
 */
async function queueOnce(
  tx: Queryable,
  admin: Admin,
  kind: string,
  period: string,
  day: string,
  mail: () => ReturnType<typeof reportMail>,
): Promise<boolean> {
  const [noted] = await tx.query(
    `INSERT INTO analytics_mails_sent (account_id, kind, period, day) VALUES ($1, $2, $3, $4::date)
     ON CONFLICT DO NOTHING RETURNING account_id`,
    [admin.id, kind, period, day],
  );
  if (noted) await queueMail(tx, mail());
  return Boolean(noted);
}

/**
 * Mails each admin who chose a report the one due now (decision 210), once per period. The
 * numbers are the console's (dashboard.ts), asked once per period whoever reads them.
 */
export async function mailDueReports(context: JobContext, now = new Date()): Promise<void> {
  const { db } = context;
  const admins = await db.query<Admin & { report: 'weekly' | 'monthly' }>(
    `SELECT a.id, a.name, a.email, a.language, s.report FROM analytics_mail_settings s JOIN accounts a ON a.id = s.account_id
     WHERE s.report <> 'none' AND a.role = 'admin' AND a.verified_at IS NOT NULL ORDER BY a.id`,
  );
  if (admins.length === 0) return;
  const mailSite = mailSiteOf(context);
  const { timeZone } = await readChatSettings(db);
  const answers = new Map<string, Promise<Answer>>();
  for (const admin of admins) {
    const due = dueReport(admin.report, now, timeZone);
    if (!due) continue;
    const sent = await db.query(
      'SELECT 1 FROM analytics_mails_sent WHERE account_id = $1 AND kind = $2 AND period = $3',
      [admin.id, due.kind, due.period.from],
    );
    if (sent.length > 0) continue;
    const key = `${due.kind} ${due.period.from}`;
    if (!answers.has(key)) answers.set(key, dashboard(db, due.period, timeZone, {}));
    const answer = await (answers.get(key) as Promise<Answer>);
    await db.transaction((tx) =>
      queueOnce(tx, admin, due.kind, due.period.from, siteDay(now, timeZone), () =>
        reportMail(mailSite, admin, due, answer),
      ),
    );
  }
}

/**
 * Visits of each span, with the dashboard's rule for a visit: two spans a call, as the dashboard
 * measures a period and the one before it in one go.
 */
async function visitsIn(db: Database, spans: Span[], timeZone: string): Promise<number[]> {
  const visits: number[] = [];
  for (let i = 0; i < spans.length; i += 2) {
    const current = spans[i] as Span;
    const previous = spans[i + 1];
    const answer = await dashboard(db, { ...current, bucket: 'hour', previous: previous ?? current }, timeZone, {});
    visits.push(answer.headline.visits);
    if (previous) visits.push(answer.previousHeadline.visits);
  }
  return visits;
}

/**
 * Mails each admin who set a multiple when the hour just ended or the one under way has more
 * visits than that many times the usual level (decision 210): once per admin and hour, and at most
 * ALERTS_PER_DAY a day, counted under a lock on the admin's settings row.
 */
export async function mailSpikeAlerts(context: JobContext, now = new Date()): Promise<void> {
  const { db } = context;
  const admins = await db.query<Admin & { multiple: number }>(
    `SELECT a.id, a.name, a.email, a.language, s.alert_multiple::float8 AS multiple
     FROM analytics_mail_settings s JOIN accounts a ON a.id = s.account_id
     WHERE s.alert_multiple IS NOT NULL AND a.role = 'admin' AND a.verified_at IS NOT NULL ORDER BY a.id`,
  );
  if (admins.length === 0) return;
  const mailSite = mailSiteOf(context);
  const { timeZone } = await readChatSettings(db);
  const today = siteDay(now, timeZone);
  const lowest = Math.min(...admins.map((admin) => admin.multiple));
  for (const [index, hour] of alertHours(now, timeZone).entries()) {
    const before = sameHourBefore(hour, timeZone);
    const answer = await dashboard(db, { ...hour, bucket: 'hour', previous: before[0] ?? hour }, timeZone, {});
    const visits = answer.headline.visits;
    // Below the lowest line the usual level could draw, the other days before need not be read.
    if (visits <= lowest * USUAL_FLOOR) continue;
    const sameHour = [answer.previousHeadline.visits, ...(await visitsIn(db, before.slice(1), timeZone))];
    for (const admin of admins) {
      if (!isSpike(visits, sameHour, admin.multiple)) continue;
      const spike = {
        hour,
        running: index === 1,
        visits,
        usual: usualLevel(sameHour),
        multiple: admin.multiple,
        pages: answer.breakdowns.page,
        timeZone,
      };
      await db.transaction(async (tx) => {
        await tx.query('SELECT 1 FROM analytics_mail_settings WHERE account_id = $1 FOR UPDATE', [admin.id]);
        const [count] = await tx.query<{ alerts: number }>(
          `SELECT count(*)::integer AS alerts FROM analytics_mails_sent WHERE account_id = $1 AND kind = 'alert' AND day = $2::date`,
          [admin.id, today],
        );
        if ((count?.alerts ?? 0) >= ALERTS_PER_DAY) return;
        await queueOnce(tx, admin, 'alert', hour.key, today, () => alertMail(mailSite, admin, spike));
      });
    }
  }
}

export async function pruneSentMails(db: Queryable): Promise<void> {
  await db.query(
    `DELETE FROM analytics_mails_sent WHERE queued_at < statement_timestamp() - $1::integer * interval '1 day'`,
    [RETENTION.reportMailRecordDays],
  );
}

export const reportMailJobs: JobDefinitions = {
  // Every quarter of an hour: a report goes out within that of REPORT_HOUR on its day.
  'analytics.report-mails': { everySeconds: 15 * 60, run: (_, context) => mailDueReports(context) },
  // Every ten minutes: an alert comes within that of an hour's visits crossing the line.
  'analytics.alert-mails': { everySeconds: 10 * 60, run: (_, context) => mailSpikeAlerts(context) },
  'analytics.prune-sent-mails': { everySeconds: 24 * 60 * 60, run: (_, { db }) => pruneSentMails(db) },
};
