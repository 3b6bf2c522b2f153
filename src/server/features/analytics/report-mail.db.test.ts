import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { ANALYTICS_MAIL_API } from '#common/analytics-mail.ts';
import { RETENTION } from '#common/retention.ts';
import { JOBS } from '#server/app.ts';
import { type Database, openDatabase } from '#server/platform/db/database.ts';
import { type JobContext, startJobRunner } from '#server/platform/jobs/jobs.ts';
import { smtpMailer } from '#server/platform/mail/mailer.ts';
import { loadSiteConfig, readTexts } from '#server/platform/site-config.ts';
import { describeApi } from '#tests/support/api.ts';
import { signedInOperator } from '#tests/support/chat.ts';
import { giveSecondFactor } from '#tests/support/second-factor.ts';
import { storeEvents } from './events-store.ts';
import type { AnalyticsEvent } from './posthog-payload.ts';
import { mailDueReports, mailSpikeAlerts, pruneSentMails } from './report-mail-jobs.ts';

const site = await loadSiteConfig();
const texts = await readTexts();
const MINUTE = 60 * 1000;

let events = 0;
const view = (distinctId: string, path: string, at: string | number): AnalyticsEvent => ({
  uuid: `${randomBytes(4).toString('hex')}-${++events}`,
  event: '$pageview',
  distinctId,
  path,
  language: (path.split('/')[1] ?? null) as 'en',
  occurredAt: new Date(at),
});

describeApi('analytics by mail', (api) => {
  /** An admin whose account is in `language`, signed in with two factors, with their choice saved through the API. */
  const admin = async (language: string, choice?: { report: string; alertMultiple: number | null }) => {
    const { client, person } = await api.member({ language });
    await api.db().query(`UPDATE accounts SET role = 'admin' WHERE email = $1`, [person.email]);
    await giveSecondFactor(api.db(), person.email);
    if (choice) expect((await client.post(ANALYTICS_MAIL_API.settings, choice)).status).toBe(200);
    // Mail from now on: the address's confirmation code came before.
    const before = mailsTo(person.email).length;
    return { client, email: person.email, mails: () => mailsTo(person.email).slice(before) };
  };
  const mailsTo = (email: string) => api.mail().mails.filter((mail) => mail.to.includes(email));
  const noMailWaiting = () =>
    vi.waitFor(async () => expect(await api.db().query(`SELECT id FROM jobs WHERE kind = 'mail.send'`)).toEqual([]), {
      timeout: 10_000,
      interval: 50,
    });

  beforeAll(async () => {
    await api.db().query(`UPDATE chat_settings SET time_zone = 'Europe/Berlin'`);
  });

  it('lets each admin read and set their own choice, refuses bad values by field, and keeps others out', async () => {
    const { client } = await admin('en');
    expect((await client.get(ANALYTICS_MAIL_API.settings)).body).toEqual({ report: 'none', alertMultiple: null });
    const saved = await client.post(ANALYTICS_MAIL_API.settings, { report: 'weekly', alertMultiple: 2.5 });
    expect([saved.status, saved.body]).toEqual([200, { report: 'weekly', alertMultiple: 2.5 }]);
    expect((await client.get(ANALYTICS_MAIL_API.settings)).body).toEqual({ report: 'weekly', alertMultiple: 2.5 });
    // Another admin's choice is theirs alone.
    expect((await (await admin('it')).client.get(ANALYTICS_MAIL_API.settings)).body).toEqual({
      report: 'none',
      alertMultiple: null,
    });

    const bad: [Record<string, unknown>, string][] = [
      [{ report: 'daily', alertMultiple: null }, 'report'],
      [{ alertMultiple: null }, 'report'],
      [{ report: 'monthly', alertMultiple: 1.5 }, 'alertMultiple'],
      [{ report: 'monthly', alertMultiple: 101 }, 'alertMultiple'],
      [{ report: 'monthly', alertMultiple: 2.55 }, 'alertMultiple'],
      [{ report: 'monthly', alertMultiple: '3' }, 'alertMultiple'],
      [{ report: 'monthly' }, 'alertMultiple'],
    ];
    for (const [body, field] of bad) {
      const answer = await client.post(ANALYTICS_MAIL_API.settings, body);
      expect([field, answer.status, answer.body]).toEqual([
        field,
        400,
        { error: { code: 'VALIDATION_ERROR', fields: { [field]: 'VALIDATION_ERROR' } } },
      ]);
    }
    expect((await client.get(ANALYTICS_MAIL_API.settings)).body).toEqual({ report: 'weekly', alertMultiple: 2.5 });

    expect((await api.client().get(ANALYTICS_MAIL_API.settings)).status).toBe(401);
    for (const role of ['operator', 'editor']) {
      const { client: other } = await signedInOperator(api, role);
      expect((await other.get(ANALYTICS_MAIL_API.settings)).body).toEqual({ error: { code: 'FORBIDDEN' } });
      const answer = await other.post(ANALYTICS_MAIL_API.settings, { report: 'weekly', alertMultiple: null });
      expect([role, answer.status, answer.body]).toEqual([role, 403, { error: { code: 'FORBIDDEN' } }]);
    }
    await client.post(ANALYTICS_MAIL_API.settings, { report: 'none', alertMultiple: null });
  });

  it('mails the week before once to each admin who chose it, in their language, with two instances running the jobs', async () => {
    const german = await admin('de', { report: 'weekly', alertMultiple: null });
    const thai = await admin('th', { report: 'weekly', alertMultiple: null });
    const monthly = await admin('en', { report: 'monthly', alertMultiple: null });
    // An operator's row (left from when they were an admin, say) brings them nothing.
    const { person: operator } = await signedInOperator(api);
    await api
      .db()
      .query(
        `INSERT INTO analytics_mail_settings (account_id, report) SELECT id, 'weekly' FROM accounts WHERE email = $1`,
        [operator.email],
      );

    // The week of 23 to 29 March 2026 in Berlin (summer time from the 29th): 600 visitors reading two
    // German pages and 100 who leave after one English page; the week before, 350 of one page each.
    // A view at 00:30 on Monday the 30th (22:30 UTC) belongs to the next week.
    const week = Date.parse('2026-03-23T08:00:00Z');
    await storeEvents(api.db(), [
      ...Array.from({ length: 600 }, (_, n) => [
        view(`reader-${n}`, '/de', week + n * MINUTE),
        view(`reader-${n}`, '/de/about', week + n * MINUTE + 2 * MINUTE),
      ]).flat(),
      ...Array.from({ length: 100 }, (_, n) => view(`glance-${n}`, '/en', week + 2 * 24 * 60 * MINUTE + n * MINUTE)),
      ...Array.from({ length: 350 }, (_, n) => view(`before-${n}`, '/de', week - 7 * 24 * 60 * MINUTE + n * MINUTE)),
      view('late', '/nl', '2026-03-29T22:30:00Z'),
    ]);

    // Two instances: on PostgreSQL each with its own pool, as separate processes have (one PGlite
    // belongs to one process, so there they share it); the suite's own runner is a third.
    const pools: Database[] =
      api.target.kind === 'postgres'
        ? await Promise.all([0, 1].map(() => openDatabase(api.store().options)))
        : [api.db(), api.db()];
    const mailer = smtpMailer(api.mail().url, 'Site <no-reply@example.com>');
    const contexts: JobContext[] = pools.map((db) => ({ db, mailer, site, texts }));
    // Monday 30 March, 07:00 in Berlin, for every job of this process.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-30T05:00:00Z'));
    const runners = contexts.map((context) => startJobRunner(context, JOBS, { pollMs: 20 }));
    try {
      // Both instances' report jobs at the same moment...
      await Promise.all(contexts.map((context) => mailDueReports(context)));
      // ...then the recurring job, made due twice, on whichever runner claims it.
      for (let round = 0; round < 2; round++) {
        await api.db().query(`DELETE FROM jobs WHERE kind = 'analytics.report-mails'`);
        await api.db().query(`INSERT INTO jobs (kind, unique_key) VALUES ($1, $1)`, ['analytics.report-mails']);
        await vi.waitFor(
          async () =>
            expect(
              await api
                .db()
                .query(
                  `SELECT 1 FROM jobs WHERE kind = 'analytics.report-mails' AND run_at > statement_timestamp() + interval '10 minutes'`,
                ),
            ).toHaveLength(1),
          { timeout: 10_000, interval: 50 },
        );
      }
      await noMailWaiting();
    } finally {
      await Promise.all(runners.map((runner) => runner.stop()));
      vi.useRealTimers();
      if (api.target.kind === 'postgres') await Promise.all(pools.map((pool) => pool.close()));
    }

    expect(german.mails()).toHaveLength(1);
    expect(thai.mails()).toHaveLength(1);
    expect(monthly.mails()).toEqual([]);
    expect(mailsTo(operator.email).filter((mail) => mail.subject.includes('week in numbers'))).toEqual([]);

    const [mail] = german.mails();
    const de = (value: number, options?: Intl.NumberFormatOptions) =>
      new Intl.NumberFormat('de', options).format(value);
    expect(mail?.subject).toBe(`${site.brand.siteName}: Ihre Woche in Zahlen, 23.03.2026 bis 29.03.2026`);
    // 700 visitors and visits against 350: twice as many.
    expect(mail?.text).toContain(
      `Eindeutige Besucher: ${de(700)} (${de(1, { style: 'percent', signDisplay: 'exceptZero' })} gegenüber dem vorherigen Zeitraum (${de(350)}))`,
    );
    for (const body of [mail?.text ?? '', mail?.html ?? '']) {
      expect(body).toContain('Eindeutige Besucher');
      expect(body).toContain(de(1, { style: 'percent', signDisplay: 'exceptZero' }));
      expect(body).toContain(de(1300));
      expect(body).toContain(de(1300 / 700, { maximumFractionDigits: 1 }));
      expect(body).toContain(de(100 / 700, { style: 'percent', maximumFractionDigits: 0 }));
      expect(body).toContain('/de/about');
      expect(body).toContain('Deutsch');
      expect(body).not.toContain('Niederländisch');
    }
    expect(mail?.text).toContain('Seitenaufrufe: 1.300');
    expect(mail?.html).not.toMatch(/<img|src=|url\(/i);

    const [thaiMail] = thai.mails();
    expect(thaiMail?.subject).toContain('สรุปตัวเลขประจำสัปดาห์');
    expect(thaiMail?.text).toContain('เยอรมัน (Deutsch)');
    expect(thaiMail?.text).toContain('1,300');
  });

  it('alerts an admin when an hour passes their multiple of the usual level, once an hour and twice a day at most', async () => {
    const eager = await admin('en', { report: 'none', alertMultiple: 2 });
    const calm = await admin('fr', { report: 'none', alertMultiple: 5 });
    const context: JobContext = { db: api.db(), mailer: { send: async () => {} }, site, texts };
    // The seven days before 6 April 2026, 10:00 to 11:00 in Berlin: 4 visits each, below the floor of 10.
    const usual = Array.from({ length: 7 }, (_, day) =>
      Array.from({ length: 4 }, (_, n) =>
        view(`usual-${day}-${n}`, '/en', Date.parse('2026-04-05T08:10:00Z') - day * 24 * 60 * MINUTE + n * MINUTE),
      ),
    ).flat();
    // 25 visits in each of the hours from 10:00, 11:00 and 12:00 on the 6th: above 2 × 10, below 5 × 10.
    const busy = (hour: string) =>
      Array.from({ length: 25 }, (_, n) =>
        view(`busy-${hour}-${n}`, '/en/contact', Date.parse(`2026-04-06T${hour}:01:00Z`) + n * 30_000),
      );
    await storeEvents(api.db(), [...usual, ...busy('08'), ...busy('09'), ...busy('10')]);

    // 10:20: the hour under way has 25 visits already.
    await mailSpikeAlerts(context, new Date('2026-04-06T08:20:00Z'));
    await mailSpikeAlerts(context, new Date('2026-04-06T08:30:00Z'));
    await noMailWaiting();
    expect(eager.mails()).toHaveLength(1);
    const [first] = eager.mails();
    expect(first?.subject).toBe(`${site.brand.siteName}: 25 visits in one hour, more than 2 times the usual`);
    const time = new Intl.DateTimeFormat('en', { timeStyle: 'short', timeZone: 'Europe/Berlin' });
    expect(first?.text).toContain(
      `Since ${time.format(new Date('2026-04-06T08:00:00Z'))} on Apr 6, 2026 (Europe/Berlin)`,
    );
    expect(first?.text).toContain('usual level for this hour: 10 visits');
    expect(first?.text).toContain('/en/contact: 25');
    // 11:20 and 12:20: the hour before is already told, the new one is the second of the day, then no more.
    await mailSpikeAlerts(context, new Date('2026-04-06T09:20:00Z'));
    await mailSpikeAlerts(context, new Date('2026-04-06T10:20:00Z'));
    await noMailWaiting();
    expect(eager.mails().map((mail) => mail.text.match(/Since (\S+)/)?.[1])).toEqual(['10:00', '11:00']);
    expect(calm.mails()).toEqual([]);
  });

  it('forgets which mails went out after the retention period, and only then', async () => {
    const { email } = await admin('nl');
    const [account] = await api
      .db()
      .query<{ id: string }>('SELECT id::text AS id FROM accounts WHERE email = $1', [email]);
    const kept = RETENTION.reportMailRecordDays;
    const record = (period: string, daysAgo: number) =>
      api.db().query(
        `INSERT INTO analytics_mails_sent (account_id, kind, period, day, queued_at)
         VALUES ($1, 'weekly', $2, current_date, now() - $3::integer * interval '1 day')`,
        [account?.id, period, daysAgo],
      );
    await record('old', kept + 1);
    await record('recent', kept - 1);
    await pruneSentMails(api.db());
    const left = await api
      .db()
      .query<{ period: string }>('SELECT period FROM analytics_mails_sent WHERE account_id = $1', [account?.id]);
    expect(left.map((row) => row.period)).toEqual(['recent']);
  });

  afterAll(() => {
    vi.useRealTimers();
  });
});
