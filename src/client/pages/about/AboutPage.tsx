import { useTranslation } from 'react-i18next';

const VALUES = ['clarity', 'care', 'respect'] as const;

export default function AboutPage() {
  const { t } = useTranslation('about');
  return (
    <article className="container page">
      <h1>{t('title')}</h1>
      <p className="lead">{t('lead')}</p>
      <section aria-labelledby="story-title">
        <h2 id="story-title">{t('story.title')}</h2>
        <p>{t('story.text')}</p>
      </section>
      <section aria-labelledby="values-title">
        <h2 id="values-title">{t('values.title')}</h2>
        <ul className="cards">
          {VALUES.map((value) => (
            <li className="card" key={value}>
              <h3>{t(`values.${value}.title`)}</h3>
              <p>{t(`values.${value}.text`)}</p>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="team-title">
        <h2 id="team-title">{t('team.title')}</h2>
        <p>{t('team.text')}</p>
      </section>
    </article>
  );
}
