import { useTranslation } from 'react-i18next';
import { LegalArticle } from './LegalArticle.tsx';

const SECTIONS = ['use', 'account', 'content', 'accuracy', 'links', 'liability', 'changes', 'law'] as const;

export default function TermsPage() {
  const { t } = useTranslation('terms');
  return (
    <LegalArticle
      title={t('title')}
      updated={t('updated')}
      lead={t('lead')}
      sections={SECTIONS.map((id) => ({ id, title: t(`sections.${id}.title`), text: t(`sections.${id}.text`) }))}
    />
  );
}
