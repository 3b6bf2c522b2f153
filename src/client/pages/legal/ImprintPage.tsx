import { useTranslation } from 'react-i18next';
import { useLanguage } from '#client/lib/address.tsx';
import { Details, EmailLink, PhoneLink, PostalAddress } from '#client/lib/company.tsx';
import { useSiteConfig } from '#client/lib/site-config.tsx';
import { pagePath } from '#common/routes.ts';
import { LegalArticle, LegalSection } from './LegalArticle.tsx';

/** The imprint (German: Impressum): who provides the site, from the site configuration. */
export default function ImprintPage() {
  const { t } = useTranslation('legal');
  const lang = useLanguage();
  const { company } = useSiteConfig();
  const responsible = company.contentResponsible;
  return (
    <LegalArticle title={t('imprint.title')} lead={t('imprint.lead')} dated={false}>
      <LegalSection id="provider" title={t('imprint.provider')}>
        <PostalAddress name={company.legalName} address={company.address} country={company.country} />
        <Details
          rows={[
            [t('labels.representedBy'), company.representatives.length > 0 && company.representatives.join(', ')],
            [t('labels.register'), company.register],
            [t('labels.vatId'), company.vatId],
          ]}
        />
      </LegalSection>
      <LegalSection id="contact" title={t('imprint.contact')}>
        <Details
          rows={[
            [t('labels.email'), <EmailLink key="email" email={company.email} />],
            [t('labels.phone'), company.phone && <PhoneLink phone={company.phone} />],
          ]}
        />
      </LegalSection>
      {responsible && (
        <LegalSection id="content" title={t('labels.contentResponsible')}>
          <PostalAddress
            name={responsible.name}
            address={responsible.address.length > 0 ? responsible.address : company.address}
            country={company.country}
            nameFact="provider"
          />
        </LegalSection>
      )}
      <LegalSection id="data" title={t('imprint.dataTitle')}>
        {company.dataProtectionOfficer && (
          <Details
            rows={[
              [t('labels.dataProtectionOfficer'), company.dataProtectionOfficer.name || null],
              [t('labels.email'), <EmailLink key="email" email={company.dataProtectionOfficer.email} />],
            ]}
          />
        )}
        <p>
          {t('imprint.privacy')} <a href={pagePath(lang, 'privacy')}>{t('imprint.privacyLink')}</a>
        </p>
      </LegalSection>
    </LegalArticle>
  );
}
