import { useTranslation } from 'react-i18next';
import { useLanguageName } from '#client/console/format.ts';
import type { AnalyticsDimension } from '#common/analytics-api.ts';
import { isLanguage } from '#common/languages.ts';

const DEVICES = ['desktop', 'mobile', 'tablet', 'bot'] as const;
const isDevice = (key: string): key is (typeof DEVICES)[number] => (DEVICES as readonly string[]).includes(key);

/**
 * How the page names the breakdowns and their values in the console's language: a site language as
 * "Thai (ไทย)", another browser language by its name, a country by its name with its code
 * ("Germany (DE)"), a device class in words, and an empty value ("no referrer") as what it means
 * for that breakdown.
 */
export function useAnalyticsLabels() {
  const { t, i18n } = useTranslation('console');
  const languageName = useLanguageName();
  const names = new Intl.DisplayNames([i18n.language], { type: 'language' });
  const regions = new Intl.DisplayNames([i18n.language], { type: 'region', fallback: 'none' });
  const value = (dimension: AnalyticsDimension, key: string): string => {
    if (key === '') {
      if (dimension === 'referrer') return t('analytics.none.referrer');
      return t(dimension === 'source' || dimension === 'campaign' ? 'analytics.none.campaign' : 'analytics.none.other');
    }
    if (dimension === 'language') return languageName(key);
    if (dimension === 'browserLanguage') {
      if (isLanguage(key)) return languageName(key);
      try {
        return names.of(key) ?? key;
      } catch {
        return key;
      }
    }
    if (dimension === 'device' && isDevice(key)) return t(`analytics.devices.${key}`);
    if (dimension === 'country') {
      try {
        const name = regions.of(key);
        return name ? `${name} (${key})` : key;
      } catch {
        // A filter in the address may name no region at all.
        return key;
      }
    }
    return key;
  };
  return {
    title: (dimension: AnalyticsDimension) => t(`analytics.breakdowns.${dimension}.title`),
    column: (dimension: AnalyticsDimension) => t(`analytics.breakdowns.${dimension}.column`),
    value,
  };
}

export type AnalyticsLabels = ReturnType<typeof useAnalyticsLabels>;
