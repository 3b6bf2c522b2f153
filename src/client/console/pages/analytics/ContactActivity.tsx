import { useTranslation } from 'react-i18next';
import { useFormat } from '#client/console/format.ts';
import { ScrollTable } from '#client/lib/ScrollTable.tsx';
import type { AnalyticsAnswer } from '#common/analytics-api.ts';
import { durationFormat } from '#common/analytics-format.ts';

/**
 * Contact messages and chat conversations per hour or day of the period, with how many
 * conversations the team answered and the median wait for that answer. The filters do not apply:
 * a message is not tied to a visit.
 */
export function ContactActivity({
  answer,
  buckets,
  rowLabel,
}: {
  answer: AnalyticsAnswer;
  buckets: string[];
  rowLabel: (bucket: string) => string;
}) {
  const { t, i18n } = useTranslation('console');
  const format = useFormat();
  const duration = durationFormat(i18n.language);
  const hourly = answer.bucket === 'hour';
  return (
    <section className="chart" aria-labelledby="contact-title">
      <h2 id="contact-title">{t('analytics.contactTitle')}</h2>
      <p>{t('analytics.contactNote')}</p>
      <ScrollTable caption={t('analytics.contactCaption')}>
        <thead>
          <tr>
            <th scope="col">{t(hourly ? 'analytics.hour' : 'analytics.day')}</th>
            <th scope="col">{t('analytics.messagesColumn')}</th>
            <th scope="col">{t('analytics.conversationsColumn')}</th>
            <th scope="col">{t('analytics.answeredColumn')}</th>
            <th scope="col">{t('analytics.firstReplyColumn')}</th>
          </tr>
        </thead>
        <tbody>
          {buckets.map((bucket) => {
            const row = answer.contact.find((item) => item.bucket === bucket);
            return (
              <tr key={bucket}>
                <th scope="row">{rowLabel(bucket)}</th>
                <td>{format.number(row?.messages ?? 0)}</td>
                <td>{format.number(row?.conversations ?? 0)}</td>
                <td>{format.number(row?.answered ?? 0)}</td>
                <td>{row?.medianFirstReplySeconds == null ? '–' : duration(row.medianFirstReplySeconds)}</td>
              </tr>
            );
          })}
        </tbody>
      </ScrollTable>
    </section>
  );
}
