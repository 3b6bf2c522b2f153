import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { consoleCall } from '#client/console/api.ts';
import { useFormat } from '#client/console/format.ts';
import { ConsoleLink, Loading } from '#client/console/ui.tsx';
import { useTitle } from '#client/console/use-title.ts';
import { navigate } from '#client/lib/address.tsx';
import { CHAT_DESK_API, type SearchAnswer } from '#common/chat-desk-api.ts';
import type { ErrorCode } from '#common/error-codes.ts';
import { isLanguage, LANGUAGE_NAMES } from '#common/languages.ts';
import { consolePath } from '#common/routes.ts';
import './search.css';

const languageName = (code: string) => (isLanguage(code) ? LANGUAGE_NAMES[code] : code);

/**
 * One search box over chats and contact messages: words (with each language's stemming), an
 * address or a visitor's name. The query lives in the address (`?q=`), so a search can be shared
 * and Back returns to it.
 */
export default function SearchPage({ query }: { query: URLSearchParams }) {
  const { t } = useTranslation('console');
  const { t: te } = useTranslation('errors');
  const format = useFormat();
  useTitle(t('search.title'));
  const q = query.get('q') ?? '';
  const [text, setText] = useState(q);
  const [answer, setAnswer] = useState<SearchAnswer | null>(null);
  const [error, setError] = useState<ErrorCode | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    setText(q);
    setAnswer(null);
    setError(null);
    if (!q) return;
    let current = true;
    setBusy(true);
    void consoleCall<SearchAnswer>(`${CHAT_DESK_API.search}?${new URLSearchParams({ q })}`).then((result) => {
      if (!current) return;
      setBusy(false);
      if (result.ok) setAnswer(result.data);
      else setError(result.fields?.q ?? result.code);
    });
    return () => {
      current = false;
    };
  }, [q]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    navigate(consolePath('search', { query: `?${new URLSearchParams({ q: text.trim() })}` }));
  };
  return (
    <>
      <h1>{t('search.title')}</h1>
      <search>
        <form className="console-search" onSubmit={submit}>
          <label htmlFor="console-search-q">{t('search.label')}</label>
          <p id="console-search-hint" className="console-search__hint">
            {t('search.hint')}
          </p>
          <div className="console-search__row">
            <input
              id="console-search-q"
              type="search"
              value={text}
              maxLength={200}
              aria-describedby={`console-search-hint${error ? ' console-search-error' : ''}`}
              aria-invalid={error ? true : undefined}
              onChange={(event) => setText(event.target.value)}
            />
            <button type="submit" className="button">
              {t('search.submit')}
            </button>
          </div>
          {error && (
            <p id="console-search-error" className="field__error">
              {te(error)}
            </p>
          )}
        </form>
      </search>
      {busy && <Loading />}
      <p role="status" className="console-search__summary">
        {answer
          ? answer.chats.length + answer.contact.length === 0
            ? t('search.none')
            : t('search.found', { chats: answer.chats.length, contact: answer.contact.length })
          : ''}
      </p>
      {answer && answer.chats.length > 0 && (
        <section aria-labelledby="search-chats">
          <h2 id="search-chats">{t('search.chats')}</h2>
          <ul className="console-search__hits">
            {answer.chats.map((hit) => (
              <li key={hit.conversationId}>
                <ConsoleLink to={consolePath('chat', { query: `?conversation=${hit.conversationId}` })}>
                  {hit.visitor ?? t('search.visitor', { id: hit.conversationId })}
                </ConsoleLink>{' '}
                <span className="console-search__meta">
                  {languageName(hit.language)} · <time dateTime={hit.createdAt}>{format.dateTime(hit.createdAt)}</time>
                </span>
                <p className="console-search__excerpt">{hit.excerpt}</p>
              </li>
            ))}
          </ul>
        </section>
      )}
      {answer && answer.contact.length > 0 && (
        <section aria-labelledby="search-contact">
          <h2 id="search-contact">{t('search.contact')}</h2>
          <ul className="console-search__hits">
            {answer.contact.map((hit) => (
              <li key={hit.id}>
                <ConsoleLink to={consolePath('message', { id: hit.id })}>
                  {t('search.from', { name: hit.name, email: hit.email })}
                </ConsoleLink>{' '}
                <span className="console-search__meta">
                  {languageName(hit.language)} · <time dateTime={hit.createdAt}>{format.dateTime(hit.createdAt)}</time>
                </span>
                <p className="console-search__excerpt">{hit.excerpt}</p>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
