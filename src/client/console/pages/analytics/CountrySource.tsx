import { useTranslation } from 'react-i18next';

/**
 * Under the countries: how they are found, and the credit DB-IP's licence (CC BY 4.0) asks of a
 * web application that shows its results, a link to its site (decision 215).
 */
export function CountrySource() {
  const { t } = useTranslation('console');
  return (
    <p className="console-note">
      {t('analytics.countryNote')}{' '}
      <a href="https://db-ip.com" rel="noreferrer">
        {t('analytics.countrySource')}
      </a>
    </p>
  );
}
