import { useTranslation } from 'react-i18next';
import { useLanguage } from '#client/lib/address.tsx';
import { Details, PostalAddress } from '#client/lib/company.tsx';
import { usePicture } from '#client/lib/page-pictures.ts';
import { useSiteConfig } from '#client/lib/site-config.tsx';
import { pagePath } from '#common/routes.ts';

/**
 * The about page: the company's story, values (as many as the `about` texts list) and team, then
 * the company's details from the site configuration.
 */
export default function AboutPage() {
  const { t } = useTranslation('about');
  const { t: legal } = useTranslation('legal');
  const lang = useLanguage();
  const { company } = useSiteConfig();
  const picture = usePicture('about');
  const values = t('values.items', { returnObjects: true });
  return (
    <article className="container page">
      <h1>{t('title')}</h1>
      <p className="lead">{t('lead')}</p>
      {picture && (
        // Under the lead, within the first screen: loaded at once, not lazily. The column is 50rem at most.
        <picture className="picture">
          {picture.sources.map((source) => (
            <source
              key={source.type}
              type={source.type}
              srcSet={source.srcset}
              sizes="(min-width: 52.5rem) 50rem, calc(100vw - 2.5rem)"
            />
          ))}
          <img
            src={picture.src}
            width={picture.width}
            height={picture.height}
            alt={picture.alt[lang] ?? picture.alt.en ?? ''}
            decoding="async"
          />
        </picture>
      )}
      <section aria-labelledby="story-title">
        <h2 id="story-title">{t('story.title')}</h2>
        <p>{t('story.text')}</p>
      </section>
      <section aria-labelledby="values-title">
        <h2 id="values-title">{t('values.title')}</h2>
        <ul className="cards">
          {values.map((value) => (
            <li className="card" key={value.title}>
              <h3>{value.title}</h3>
              <p>{value.text}</p>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="team-title">
        <h2 id="team-title">{t('team.title')}</h2>
        <p>{t('team.text')}</p>
      </section>
      <section aria-labelledby="company-title">
        <h2 id="company-title">{legal('company.title')}</h2>
        <PostalAddress name={company.legalName} address={company.address} country={company.country} />
        <Details
          rows={[
            [legal('labels.representedBy'), company.representatives.length > 0 && company.representatives.join(', ')],
            [legal('labels.register'), company.register],
          ]}
        />
        <p>
          <a href={pagePath(lang, 'imprint')}>{legal('company.imprintLink')}</a>
        </p>
      </section>
    </article>
  );
}
