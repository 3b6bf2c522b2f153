import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { consoleCall } from '#client/console/api.ts';
import { useFormat } from '#client/console/format.ts';
import { ScrollTable } from '#client/lib/ScrollTable.tsx';
import { ANALYTICS_API, type RealtimeAnswer } from '#common/analytics-api.ts';

/** How often the count is asked again while the page is in view. */
const REFRESH_MS = 15_000;

/**
 * Who is on the site right now, asked again every few seconds while the console is in view (a
 * hidden tab asks nothing). No live region: a count that changes every few seconds would talk over
 * whatever the staff member reads; the time it was counted is shown instead.
 */
export function RightNow() {
  const { t } = useTranslation('console');
  const format = useFormat();
  const [now, setNow] = useState<RealtimeAnswer | null>(null);

  useEffect(() => {
    let current = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      clearTimeout(timer);
      if (document.visibilityState === 'visible') {
        const result = await consoleCall<RealtimeAnswer>(ANALYTICS_API.realtime);
        if (!current) return;
        if (result.ok) setNow(result.data);
      }
      timer = setTimeout(ask, REFRESH_MS);
    };
    const onVisible = () => {
      if (document.visibilityState === 'visible') void ask();
    };
    void ask();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      current = false;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, []);

  return (
    <section className="chart right-now" aria-labelledby="right-now-title">
      <h2 id="right-now-title">{t('analytics.rightNow.title')}</h2>
      {now && (
        <>
          <p>
            <strong className="right-now__count">{format.number(now.visitors)}</strong>{' '}
            {t('analytics.rightNow.visitors', { count: now.visitors })}{' '}
            <span className="console-note">{t('analytics.rightNow.counted', { time: format.dateTime(now.at) })}</span>
          </p>
          {now.pages.length > 0 && (
            <ScrollTable caption={t('analytics.rightNow.caption')}>
              <thead>
                <tr>
                  <th scope="col">{t('analytics.page')}</th>
                  <th scope="col">{t('analytics.rightNow.visitorsColumn')}</th>
                </tr>
              </thead>
              <tbody>
                {now.pages.map((row) => (
                  <tr key={row.path}>
                    <th scope="row" dir="auto">
                      {row.path}
                    </th>
                    <td>{format.number(row.visitors)}</td>
                  </tr>
                ))}
              </tbody>
            </ScrollTable>
          )}
        </>
      )}
    </section>
  );
}
