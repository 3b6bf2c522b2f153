import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguageName } from '#client/console/format.ts';
import { ConsoleLink, Loading } from '#client/console/ui.tsx';
import { useTitle } from '#client/console/use-title.ts';
import { navigate } from '#client/lib/address.tsx';
import type { ErrorCode } from '#common/error-codes.ts';
import { bestLanguage, LANGUAGES, type Language } from '#common/languages.ts';
import { consolePath, type PageId } from '#common/routes.ts';
import { chatPreviewPath, type EditableNamespace, TEXT_PART_NAMESPACES, type TextEntry } from '#common/site-texts.ts';
import { TextEditor } from './TextEditor.tsx';
import {
  filterTexts,
  groupTexts,
  pagesShowing,
  readTextsQuery,
  TEXT_FILTERS,
  type TextFilter,
  type TextsQuery,
  textsQueryString,
} from './text-list.ts';
import { previewPath, textsApi } from './texts-api.ts';
import { PreviewLink } from './texts-ui.tsx';
import './texts.css';

/**
 * One namespace's texts in one language, each beside the English one, with its draft to save or
 * drop, its history and undo; the choices (language, which texts, a search) live in the address.
 */
export default function TextsNamespacePage({
  namespace,
  query,
}: {
  namespace: EditableNamespace;
  query: URLSearchParams;
}) {
  const { t, i18n } = useTranslation('console');
  const languageName = useLanguageName();
  const { t: te } = useTranslation('errors');
  const choices = readTextsQuery(query, bestLanguage([i18n.language]));
  const { language } = choices;
  const name = t(`texts.namespaces.${namespace}`);
  const [texts, setTexts] = useState<TextEntry[] | null>(null);
  const [failed, setFailed] = useState<ErrorCode | null>(null);
  const [pages, setPages] = useState<PageId[]>([]);
  useTitle(t('texts.namespace.title', { namespace: name, language: languageName(language) }));

  const load = useCallback(async () => {
    const result = await textsApi.namespace(namespace, language);
    if (result.ok) setTexts(result.data.texts);
    else setFailed(result.code);
  }, [namespace, language]);
  useEffect(() => {
    setTexts(null);
    setFailed(null);
    void load();
  }, [load]);
  useEffect(() => {
    void textsApi.overview().then((result) => {
      if (result.ok) setPages(pagesShowing(result.data, namespace));
    });
  }, [namespace]);

  const replace = (next: TextEntry) =>
    setTexts((current) => current?.map((entry) => (entry.key === next.key ? next : entry)) ?? null);
  const shown = texts ? filterTexts(texts, choices.show, choices.search) : [];

  return (
    <div className="texts">
      <p className="console-back">
        <ConsoleLink to={consolePath('texts', { query: `?language=${language}` })}>{t('texts.back')}</ConsoleLink>
      </p>
      <h1>{t('texts.namespace.title', { namespace: name, language: languageName(language) })}</h1>
      <Choices namespace={namespace} choices={choices} />

      {TEXT_PART_NAMESPACES.includes(namespace) && (
        <section className="texts__previews" aria-labelledby="texts-previews">
          <h2 id="texts-previews">{t('texts.preview.title')}</h2>
          <p>{t('texts.preview.chatIntro')}</p>
          <p>
            <PreviewLink href={chatPreviewPath(language)} label={t('texts.preview.chat')} />
          </p>
        </section>
      )}
      {pages.length > 0 && (
        <section className="texts__previews" aria-labelledby="texts-previews">
          <h2 id="texts-previews">{t('texts.preview.title')}</h2>
          <p>{t('texts.preview.intro')}</p>
          <ul>
            {pages.map((page) => (
              <li key={page}>
                <PreviewLink
                  href={previewPath(page, language)}
                  label={t('texts.preview.page', { page: t(`texts.pages.${page}`) })}
                />
              </li>
            ))}
          </ul>
        </section>
      )}

      {failed && <p className="field__error">{te(failed)}</p>}
      {!texts ? (
        !failed && <Loading />
      ) : (
        <>
          <p className="texts__shown">
            {t('texts.namespace.shown', { shown: shown.length, total: texts.length })}{' '}
            <ConsoleLink to={consolePath('textsPublish')}>{t('texts.toPublish')}</ConsoleLink>
          </p>
          {shown.length === 0 && <p className="console-empty">{t('texts.namespace.none')}</p>}
          {groupTexts(shown).map(({ group, texts: entries }) => (
            <section key={group} className="texts__group" aria-labelledby={`texts-group-${group}`}>
              <h2 id={`texts-group-${group}`}>
                <code>{group}</code>
              </h2>
              <ul className="texts__list">
                {entries.map((entry) => (
                  <TextEditor
                    key={entry.key}
                    namespace={namespace}
                    language={language}
                    entry={entry}
                    onChange={replace}
                    reload={load}
                  />
                ))}
              </ul>
            </section>
          ))}
        </>
      )}
    </div>
  );
}

/** Which language and which texts to show: a form, so that nothing changes before "Show". */
function Choices({ namespace, choices }: { namespace: EditableNamespace; choices: TextsQuery }) {
  const { t } = useTranslation('console');
  const languageName = useLanguageName();
  const [language, setLanguage] = useState<Language>(choices.language);
  const [show, setShow] = useState<TextFilter>(choices.show);
  const [search, setSearch] = useState(choices.search);
  useEffect(() => {
    setLanguage(choices.language);
    setShow(choices.show);
    setSearch(choices.search);
  }, [choices.language, choices.show, choices.search]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    navigate(consolePath('textsNamespace', { id: namespace, query: textsQueryString({ language, show, search }) }));
  };
  return (
    <form className="filters" aria-label={t('texts.namespace.choices')} onSubmit={submit}>
      <label>
        {t('texts.namespace.language')}
        <select value={language} onChange={(event) => setLanguage(event.target.value as Language)}>
          {LANGUAGES.map((each) => (
            <option key={each} value={each}>
              {languageName(each)}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('texts.namespace.show')}
        <select value={show} onChange={(event) => setShow(event.target.value as TextFilter)}>
          {TEXT_FILTERS.map((each) => (
            <option key={each} value={each}>
              {t(`texts.filters.${each}`)}
            </option>
          ))}
        </select>
      </label>
      <label className="filters__search">
        {t('texts.namespace.search')}
        <input
          type="search"
          value={search}
          placeholder={t('texts.namespace.searchHint')}
          onChange={(event) => setSearch(event.target.value)}
        />
      </label>
      <div className="filters__actions">
        <button type="submit" className="button">
          {t('texts.namespace.apply')}
        </button>
      </div>
    </form>
  );
}
