import { useTranslation } from 'react-i18next';
import { useLanguage } from '#client/lib/address.tsx';
import { Details, EmailLink, PhoneLink, PostalAddress } from '#client/lib/operator.tsx';
import { useSiteConfig } from '#client/lib/site-config.tsx';
import { pagePath } from '#common/routes.ts';
import { LegalArticle, LegalSection } from './LegalArticle.tsx';

/** The imprint (German: Impressum): who provides the site, from the site configuration. */
export default function ImprintPage() {
  const { t } = useTranslation('legal');
  const lang = useLanguage();
  const { operator } = useSiteConfig();
  const responsible = operator.contentResponsible;
  return (
    <LegalArticle title={t('imprint.title')} lead={t('imprint.lead')} dated={false}>
      <LegalSection id="provider" title={t('imprint.provider')}>
        <PostalAddress name={operator.legalName} address={operator.address} country={operator.country} />
        <Details
          rows={[
            [t('labels.representedBy'), operator.representatives.length > 0 && operator.representatives.join(', ')],
            [t('labels.register'), operator.register],
            [t('labels.vatId'), operator.vatId],
          ]}
        />
      </LegalSection>
      <LegalSection id="contact" title={t('imprint.contact')}>
        <Details
          rows={[
            [t('labels.email'), <EmailLink key="email" email={operator.email} />],
            [t('labels.phone'), operator.phone && <PhoneLink phone={operator.phone} />],
          ]}
        />
      </LegalSection>
      {responsible && (
        <LegalSection id="content" title={t('labels.contentResponsible')}>
          <PostalAddress
            name={responsible.name}
            address={responsible.address.length > 0 ? responsible.address : operator.address}
            country={operator.country}
            nameFact="provider"
          />
        </LegalSection>
      )}
      <LegalSection id="data" title={t('imprint.dataTitle')}>
        {operator.dataProtectionOfficer && (
          <Details
            rows={[
              [t('labels.dataProtectionOfficer'), operator.dataProtectionOfficer.name || null],
              [t('labels.email'), <EmailLink key="email" email={operator.dataProtectionOfficer.email} />],
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
