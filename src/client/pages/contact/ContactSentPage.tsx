import { useTranslation } from 'react-i18next';
import { useLanguage } from '#client/lib/address.tsx';
import { pagePath } from '#common/routes.ts';

/** Where a message sent without JavaScript lands: the form's answer is a redirect here. */
export default function ContactSentPage() {
  const { t } = useTranslation('contact');
  const lang = useLanguage();
  return (
    <article className="container page">
      <h1>{t('sent.title')}</h1>
      <p className="lead">{t('sent.text')}</p>
      <p className="actions">
        <a className="button" href={pagePath(lang, 'home')}>
          {t('sent.home')}
        </a>
        <a className="button button--secondary" href={pagePath(lang, 'contact')}>
          {t('sent.another')}
        </a>
      </p>
    </article>
  );
}
