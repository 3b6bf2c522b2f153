import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat, useLanguageName } from '#client/console/format.ts';
import { ConsoleLink, Loading } from '#client/console/ui.tsx';
import { useTitle } from '#client/console/use-title.ts';
import { ScrollTable } from '#client/lib/ScrollTable.tsx';
import type { ErrorCode } from '#common/error-codes.ts';
import { bestLanguage, LANGUAGES } from '#common/languages.ts';
import { consolePath, type PageId } from '#common/routes.ts';
import type { TextsOverview } from '#common/site-texts.ts';
import { countsPerLanguage, readTextsQuery, textsQueryString } from './text-list.ts';
import { previewPath, textsApi } from './texts-api.ts';
import { CountCells, CountHeaders, PlaceholderList, PreviewLink } from './texts-ui.tsx';
import './texts.css';

/**
 * The texts editor's overview: how many texts are missing, to review or done in each language, per
 * namespace and per page of the language chosen, with the way into each namespace and to publishing.
 */
export default function TextsPage({ query }: { query: URLSearchParams }) {
  const { t, i18n } = useTranslation('console');
  const languageName = useLanguageName();
  const format = useFormat();
  const { t: te } = useTranslation('errors');
  const [overview, setOverview] = useState<TextsOverview | null>(null);
  const [failed, setFailed] = useState<ErrorCode | null>(null);
  const { language } = readTextsQuery(query, bestLanguage([i18n.language]));
  useTitle(t('texts.title'));

  useEffect(() => {
    void textsApi.overview().then((result) => {
      if (result.ok) setOverview(result.data);
      else setFailed(result.code);
    });
  }, []);

  if (!overview) {
    return (
      <>
        <h1>{t('texts.title')}</h1>
        {failed ? <p className="field__error">{te(failed)}</p> : <Loading />}
      </>
    );
  }
  const perLanguage = countsPerLanguage(overview);
  const stillPlaceholders = overview.placeholders.filter((entry) => entry.language === language);
  const placeholdersOf = (page: PageId) => stillPlaceholders.find((entry) => entry.page === page)?.keys ?? [];
  const editor = (namespace: string) =>
    consolePath('textsNamespace', { id: namespace, query: textsQueryString({ language, show: 'all', search: '' }) });
  return (
    <div className="texts">
      <h1>{t('texts.title')}</h1>
      <p className="console-lead">{t('texts.intro')}</p>
      <p className="console-note texts__drafts">
        {overview.drafts > 0 ? (
          <>
            {t('texts.draftsWaiting', { count: overview.drafts })}{' '}
            <ConsoleLink to={consolePath('textsPublish')}>{t('texts.toPublish')}</ConsoleLink>
          </>
        ) : (
          t('texts.noDrafts')
        )}
      </p>

      <ScrollTable caption={t('texts.perLanguage')}>
        <thead>
          <tr>
            <th scope="col">{t('texts.columns.language')}</th>
            <CountHeaders />
          </tr>
        </thead>
        <tbody>
          {LANGUAGES.map((each) => (
            <tr key={each}>
              <th scope="row">
                <ConsoleLink to={consolePath('texts', { query: `?language=${each}` })} current={each === language}>
                  {languageName(each)}
                </ConsoleLink>
              </th>
              <CountCells counts={perLanguage[each]} />
            </tr>
          ))}
        </tbody>
      </ScrollTable>

      <h2>{t('texts.inLanguage', { language: languageName(language) })}</h2>
      <ScrollTable caption={t('texts.perNamespace', { language: languageName(language) })}>
        <thead>
          <tr>
            <th scope="col">{t('texts.columns.namespace')}</th>
            <CountHeaders />
          </tr>
        </thead>
        <tbody>
          {overview.namespaces.map(({ namespace, counts }) => (
            <tr key={namespace}>
              <th scope="row">
                <ConsoleLink to={editor(namespace)}>{t(`texts.namespaces.${namespace}`)}</ConsoleLink>
              </th>
              <CountCells counts={counts[language]} />
            </tr>
          ))}
        </tbody>
      </ScrollTable>

      <ScrollTable caption={t('texts.perPage', { language: languageName(language) })}>
        <thead>
          <tr>
            <th scope="col">{t('texts.columns.page')}</th>
            <th scope="col">{t('texts.columns.namespaces')}</th>
            <CountHeaders />
            <th scope="col" className="texts__count">
              {t('texts.columns.placeholders')}
            </th>
            <th scope="col">{t('texts.columns.preview')}</th>
          </tr>
        </thead>
        <tbody>
          {overview.pages.map(({ page, namespaces, counts }) => (
            <tr key={page}>
              <th scope="row">{t(`texts.pages.${page}`)}</th>
              <td>
                <ul className="texts__namespaces">
                  {namespaces.map((namespace) => (
                    <li key={namespace}>
                      <ConsoleLink to={editor(namespace)}>{t(`texts.namespaces.${namespace}`)}</ConsoleLink>
                    </li>
                  ))}
                </ul>
              </td>
              <CountCells counts={counts[language]} />
              <td className="texts__count">{format.number(placeholdersOf(page).length)}</td>
              <td>
                <PreviewLink
                  href={previewPath(page, language)}
                  label={t('texts.preview.page', { page: t(`texts.pages.${page}`) })}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </ScrollTable>

      <section aria-labelledby="texts-placeholders">
        <h2 id="texts-placeholders">{t('texts.placeholdersIn', { language: languageName(language) })}</h2>
        {stillPlaceholders.length > 0 ? (
          <>
            <p>{t('texts.publish.placeholdersIntro')}</p>
            <PlaceholderList items={stillPlaceholders} />
          </>
        ) : (
          <p className="console-empty">{t('texts.noPlaceholders', { language: languageName(language) })}</p>
        )}
      </section>
    </div>
  );
}
