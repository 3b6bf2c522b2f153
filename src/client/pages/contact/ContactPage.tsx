import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ContactForm } from '#client/features/contact/ContactForm.tsx';
import type { Language } from '#common/languages.ts';
import { pagePath } from '#common/routes.ts';

export default function ContactPage() {
  const { t } = useTranslation('contact');
  const { lang } = useParams() as { lang: Language };
  const address = t('email.address');
  return (
    <article className="container page">
      <h1>{t('title')}</h1>
      <p className="lead">{t('lead')}</p>
      <section className="card contact-form" aria-labelledby="contact-form-title">
        <h2 id="contact-form-title">{t('form.title')}</h2>
        <ContactForm language={lang} />
      </section>
      <div className="cards cards--two">
        <section className="card" aria-labelledby="email-title">
          <h2 id="email-title">{t('email.title')}</h2>
          <p>{t('email.text')}</p>
          <p>
            <a className="contact-address" href={`mailto:${address}`}>
              {address}
            </a>
          </p>
        </section>
        <section className="card" aria-labelledby="response-title">
          <h2 id="response-title">{t('response.title')}</h2>
          <p>{t('response.text')}</p>
        </section>
      </div>
      <section aria-labelledby="message-privacy-title">
        <h2 id="message-privacy-title">{t('privacy.title')}</h2>
        <p>{t('privacy.text')}</p>
        <p>
          <Link to={pagePath(lang, 'privacy')}>{t('privacyLink')}</Link>
        </p>
      </section>
    </article>
  );
}
