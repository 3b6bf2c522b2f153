import { useTranslation } from 'react-i18next';
import { useLanguage } from '#client/lib/address.tsx';
import { useCountry, useOrUnsetText } from '#client/lib/company.tsx';
import { formatDays } from '#client/lib/formats.ts';
import { useSiteConfig } from '#client/lib/site-config.tsx';
import { TERMS_NOTICE_DAYS } from '#common/legal-facts.ts';
import { RETENTION } from '#common/retention.ts';
import { LegalArticle, LegalSection } from './LegalArticle.tsx';

export default function TermsPage() {
  const { t } = useTranslation('terms');
  const lang = useLanguage();
  const site = useSiteConfig();
  const orUnset = useOrUnsetText();
  const country = useCountry();
  const legalName = orUnset(site.company.legalName, 'legalName');
  const section = (id: 'use' | 'content' | 'accuracy' | 'links') => (
    <LegalSection key={id} id={id} title={t(`sections.${id}.title`)}>
      <p>{t(`sections.${id}.text`, { legalName })}</p>
    </LegalSection>
  );
  return (
    <LegalArticle title={t('title')} lead={t('lead', { legalName })}>
      {section('use')}
      <LegalSection id="account" title={t('sections.account.title')}>
        <p>{t('sections.account.provides')}</p>
        <p>{t('sections.account.age', { count: site.accounts.minimumAge })}</p>
        <p>{t('sections.account.rules')}</p>
        <p>
          {t('sections.account.closing', {
            count: RETENTION.unverifiedAccountDays,
            period: formatDays(lang, RETENTION.inactiveAccountDays),
          })}
        </p>
      </LegalSection>
      {section('content')}
      {section('accuracy')}
      {section('links')}
      <LegalSection id="liability" title={t('sections.liability.title')}>
        <p>{t('sections.liability.unlimited')}</p>
        <p>{t('sections.liability.limited')}</p>
        <p>{t('sections.liability.others')}</p>
      </LegalSection>
      <LegalSection id="changes" title={t('sections.changes.title')}>
        <p>{t('sections.changes.text', { count: TERMS_NOTICE_DAYS })}</p>
      </LegalSection>
      <LegalSection id="law" title={t('sections.law.title')}>
        <p>{t('sections.law.text', { legalName, country: country(site.company.country) })}</p>
      </LegalSection>
    </LegalArticle>
  );
}
