import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { Language } from '#common/languages.ts';
import { pagePath } from '#common/routes.ts';

const FEATURES = ['languages', 'access', 'privacy'] as const;

export default function HomePage() {
  const { t } = useTranslation('home');
  const { lang } = useParams() as { lang: Language };
  return (
    <>
      <section className="hero">
        <div className="container">
          <h1>{t('hero.title')}</h1>
          <p className="lead">{t('hero.lead')}</p>
          <p className="actions">
            <Link className="button" to={pagePath(lang, 'contact')}>
              {t('hero.primary')}
            </Link>
            <Link className="button button--secondary" to={pagePath(lang, 'about')}>
              {t('hero.secondary')}
            </Link>
          </p>
        </div>
      </section>
      <section className="container section" aria-labelledby="features-title">
        <h2 id="features-title">{t('features.title')}</h2>
        <ul className="cards">
          {FEATURES.map((feature) => (
            <li className="card" key={feature}>
              <h3>{t(`features.${feature}.title`)}</h3>
              <p>{t(`features.${feature}.text`)}</p>
            </li>
          ))}
        </ul>
      </section>
      <section className="container section callout" aria-labelledby="closing-title">
        <h2 id="closing-title">{t('closing.title')}</h2>
        <p>{t('closing.text')}</p>
        <p>
          <Link className="button" to={pagePath(lang, 'contact')}>
            {t('closing.action')}
          </Link>
        </p>
      </section>
    </>
  );
}
