import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { consoleCall } from '#client/console/api.ts';
import { useFormat } from '#client/console/format.ts';
import { Loading } from '#client/console/ui.tsx';
import { ScrollTable } from '#client/lib/ScrollTable.tsx';
import { CHAT_DESK_API, type QualityAnswer } from '#common/chat-desk-api.ts';

/**
 * The chat's quality per week, for the analytics page: visitors' ratings of closed conversations and
 * the median wait for the team's first reply, as a table (a few numbers a week need no chart), and
 * the latest comments.
 */
export function ChatQuality() {
  const { t, i18n } = useTranslation('console');
  const format = useFormat();
  const [answer, setAnswer] = useState<QualityAnswer | null>(null);
  useEffect(() => {
    void consoleCall<QualityAnswer>(CHAT_DESK_API.quality).then((result) => {
      if (result.ok) setAnswer(result.data);
    });
  }, []);
  const day = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeZone: 'UTC' });
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  const wait = (seconds: number | null) => {
    if (seconds === null) return t('quality.none');
    return seconds < 120
      ? t('quality.seconds', { value: number.format(Math.round(seconds)) })
      : t('quality.minutes', { value: number.format(seconds / 60) });
  };
  return (
    <section aria-labelledby="chat-quality-title" className="chat-quality">
      <h2 id="chat-quality-title">{t('quality.title')}</h2>
      <p>{t('quality.intro')}</p>
      {!answer ? (
        <Loading />
      ) : (
        <>
          <ScrollTable caption={t('quality.title')}>
            <thead>
              <tr>
                <th scope="col">{t('quality.week')}</th>
                <th scope="col">{t('quality.ratings')}</th>
                <th scope="col">{t('quality.average')}</th>
                <th scope="col">{t('quality.firstReplies')}</th>
                <th scope="col">{t('quality.median')}</th>
              </tr>
            </thead>
            <tbody>
              {[...answer.weeks].reverse().map((week) => (
                <tr key={week.week}>
                  <th scope="row">
                    <time dateTime={week.week}>{day.format(new Date(`${week.week}T00:00:00Z`))}</time>
                  </th>
                  <td>{number.format(week.ratings)}</td>
                  <td>{week.averageScore === null ? t('quality.none') : number.format(week.averageScore)}</td>
                  <td>{number.format(week.firstReplies)}</td>
                  <td>{wait(week.medianFirstReplySeconds)}</td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
          <h3>{t('quality.comments')}</h3>
          {answer.comments.length === 0 ? (
            <p>{t('quality.noComments')}</p>
          ) : (
            <ul className="chat-quality__comments">
              {answer.comments.map((comment) => (
                <li key={`${comment.createdAt}-${comment.score}`}>
                  <strong>{t('quality.score', { score: comment.score })}</strong>{' '}
                  <time dateTime={comment.createdAt}>{format.dateTime(comment.createdAt)}</time>
                  <p>{comment.comment}</p>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
