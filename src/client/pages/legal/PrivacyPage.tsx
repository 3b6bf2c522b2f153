import { useTranslation } from 'react-i18next';
import { LegalArticle } from './LegalArticle.tsx';

const SECTIONS = ['controller', 'visits', 'language', 'account', 'messages', 'sharing', 'rights', 'changes'] as const;

export default function PrivacyPage() {
  const { t } = useTranslation('privacy');
  return (
    <LegalArticle
      title={t('title')}
      updated={t('updated')}
      lead={t('lead')}
      sections={SECTIONS.map((id) => ({ id, title: t(`sections.${id}.title`), text: t(`sections.${id}.text`) }))}
    />
  );
}
