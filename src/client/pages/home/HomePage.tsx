import { useTranslation } from 'react-i18next';
import { useLanguage } from '#client/lib/address.tsx';
import { usePicture } from '#client/lib/page-pictures.ts';
import { useSiteConfig } from '#client/lib/site-config.tsx';
import { pagePath } from '#common/routes.ts';
import './home.css';

/**
 * The home page: the company's own words from the `home` texts (as many offers as the texts list)
 * and the way to reach them from the site configuration.
 */
export default function HomePage() {
  const { t } = useTranslation('home');
  const lang = useLanguage();
  const { company } = useSiteConfig();
  const { email } = company;
  const picture = usePicture('home');
  const offers = t('offers.items', { returnObjects: true });
  return (
    <>
      <section className="hero">
        <div className={picture ? 'container hero__pictured' : 'container'}>
          <div>
            <h1>{t('hero.title')}</h1>
            <p className="lead">{t('hero.lead')}</p>
            <p className="actions">
              <a className="button" href={pagePath(lang, 'contact')}>
                {t('hero.primary')}
              </a>
              <a className="button button--secondary" href={pagePath(lang, 'about')}>
                {t('hero.secondary')}
              </a>
            </p>
          </div>
          {picture && (
            // The page's largest element, so asked for first. Beside the text from 56rem (half the
            // 70rem container, less the gap), under it before.
            <picture className="picture hero__picture">
              {picture.sources.map((source) => (
                <source
                  key={source.type}
                  type={source.type}
                  srcSet={source.srcset}
                  sizes="(min-width: 56rem) min(34rem, 47vw), calc(100vw - 2.5rem)"
                />
              ))}
              <img
                src={picture.src}
                width={picture.width}
                height={picture.height}
                alt={picture.alt[lang] ?? picture.alt.en ?? ''}
                decoding="async"
                fetchPriority="high"
              />
            </picture>
          )}
        </div>
      </section>
      <section className="container section" aria-labelledby="offers-title">
        <h2 id="offers-title">{t('offers.title')}</h2>
        <ul className="cards">
          {offers.map((offer) => (
            <li className="card" key={offer.title}>
              <h3>{offer.title}</h3>
              <p>{offer.text}</p>
            </li>
          ))}
        </ul>
      </section>
      <section className="container section callout" aria-labelledby="closing-title">
        <h2 id="closing-title">{t('closing.title')}</h2>
        <p>{t('closing.text')}</p>
        {email && (
          <p className="contact-address">
            <a href={`mailto:${email}`}>{email}</a>
          </p>
        )}
        <p>
          <a className="button" href={pagePath(lang, 'contact')}>
            {t('closing.action')}
          </a>
        </p>
      </section>
    </>
  );
}
