import { useTranslation } from 'react-i18next';
import { ContactForm } from '#client/features/contact/index.ts';
import { useLanguage } from '#client/lib/address.tsx';
import { EmailLink, PhoneLink, PostalAddress } from '#client/lib/company.tsx';
import { formatDays } from '#client/lib/formats.ts';
import { useSiteConfig } from '#client/lib/site-config.tsx';
import { RETENTION } from '#common/retention.ts';
import { pagePath } from '#common/routes.ts';
import './contact.css';

/** How to reach the company: the ways the site configuration gives, and what happens to a message. */
export default function ContactPage() {
  const { t } = useTranslation('contact');
  const lang = useLanguage();
  const { company } = useSiteConfig();
  return (
    <article className="container page">
      <h1>{t('title')}</h1>
      <p className="lead">{t('lead')}</p>
      <section className="card contact-form" aria-labelledby="contact-form-title">
        <h2 id="contact-form-title">{t('form.title')}</h2>
        <ContactForm language={lang} />
      </section>
      <div className="cards">
        <section className="card" aria-labelledby="email-title">
          <h2 id="email-title">{t('email.title')}</h2>
          <p>{t('email.text')}</p>
          <p className="contact-address">
            <EmailLink email={company.email} />
          </p>
        </section>
        {company.phone && (
          <section className="card" aria-labelledby="phone-title">
            <h2 id="phone-title">{t('phone.title')}</h2>
            <p className="contact-address">
              <PhoneLink phone={company.phone} />
            </p>
          </section>
        )}
        <section className="card" aria-labelledby="post-title">
          <h2 id="post-title">{t('post.title')}</h2>
          <PostalAddress name={company.legalName} address={company.address} country={company.country} />
        </section>
      </div>
      <section aria-labelledby="message-privacy-title">
        <h2 id="message-privacy-title">{t('privacy.title')}</h2>
        <p>{t('privacy.text', { period: formatDays(lang, RETENTION.messageDays) })}</p>
        <p>
          <a href={pagePath(lang, 'privacy')}>{t('privacyLink')}</a>
        </p>
      </section>
    </article>
  );
}
