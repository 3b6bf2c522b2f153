import { useTranslation } from 'react-i18next';
import type { AnalyticsHeadline } from '#common/console-api.ts';
import { HEADLINE_MEASURES } from './analytics-files.ts';
import { changeOf } from './change.ts';
import { durationFormat } from './duration.ts';

/** The headline numbers of the period, each with its change against the period before. */
export function Headline({ current, previous }: { current: AnalyticsHeadline; previous: AnalyticsHeadline }) {
  const { t, i18n } = useTranslation('console');
  const language = i18n.language;
  const whole = new Intl.NumberFormat(language);
  const decimal = new Intl.NumberFormat(language, { maximumFractionDigits: 1 });
  const percent = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 0 });
  const change = new Intl.NumberFormat(language, {
    style: 'percent',
    maximumFractionDigits: 0,
    signDisplay: 'exceptZero',
  });
  const duration = durationFormat(language);
  const shown = (measure: (typeof HEADLINE_MEASURES)[number], value: number | null) => {
    if (value === null) return '–';
    if (measure === 'viewsPerVisit') return decimal.format(value);
    if (measure === 'bounceRate') return percent.format(value);
    if (measure === 'visitSeconds') return duration(value);
    return whole.format(value);
  };
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
                      change: change.format(difference),
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
