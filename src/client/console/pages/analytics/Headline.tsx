import { useTranslation } from 'react-i18next';
import type { AnalyticsHeadline } from '#common/analytics-api.ts';
import { changeOf, HEADLINE_MEASURES, headlineFormat } from '#common/analytics-format.ts';

/** The headline numbers of the period, each with its change against the period before. */
export function Headline({ current, previous }: { current: AnalyticsHeadline; previous: AnalyticsHeadline }) {
  const { t, i18n } = useTranslation('console');
  const { measure: shown, change } = headlineFormat(i18n.language);
  return (
    <dl className="headline">
      {HEADLINE_MEASURES.map((measure) => {
        const difference = changeOf(current[measure], previous[measure]);
        return (
          <div key={measure}>
            <dt>{t(`analytics.headline.${measure}`)}</dt>
            <dd>
              <span className="headline__value">{shown(measure, current[measure])}</span>
              <span className="headline__change">
                {difference === null
                  ? t('analytics.noComparison')
                  : t('analytics.change', {
                      change: change(difference),
                      before: shown(measure, previous[measure]),
                    })}
              </span>
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
