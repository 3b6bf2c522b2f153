import { useTranslation } from 'react-i18next';
import { useSiteConfig } from '#client/lib/site-config.tsx';
import { LegalArticle } from './LegalArticle.tsx';

const SECTIONS = [
  'controller',
  'visits',
  'language',
  'identifier',
  'consent',
  'analytics',
  'tracing',
  'account',
  'messages',
  'sharing',
  'rights',
  'changes',
] as const;

export default function PrivacyPage() {
  const { t } = useTranslation('privacy');
  const { fingerprintAfterConsent } = useSiteConfig().privacy;
  // How the identifier section ends depends on the operator's privacy option.
  const identifierTiming = fingerprintAfterConsent
    ? t('sections.identifier.afterConsent')
    : t('sections.identifier.withoutConsent');
  return (
    <LegalArticle
      title={t('title')}
      updated={t('updated')}
      lead={t('lead')}
      sections={SECTIONS.map((id) => ({
        id,
        title: t(`sections.${id}.title`),
        text: id === 'identifier' ? `${t(`sections.${id}.text`)} ${identifierTiming}` : t(`sections.${id}.text`),
      }))}
    />
  );
}
