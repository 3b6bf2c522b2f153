import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { consoleCall, queryOf } from '#client/console/api.ts';
import { useFormat, useLanguageName } from '#client/console/format.ts';
import { ConsoleLink, Loading } from '#client/console/ui.tsx';
import { useTitle } from '#client/console/use-title.ts';
import { navigate } from '#client/lib/address.tsx';
import { ScrollTable } from '#client/lib/ScrollTable.tsx';
import { useErrorToast } from '#client/lib/toast/use-error-toast.ts';
import {
  INBOX_API,
  MESSAGE_STATUSES,
  type MessageStatus,
  type MessageSummary,
  type MessagesAnswer,
} from '#common/inbox-api.ts';
import { LANGUAGES } from '#common/languages.ts';
import { consolePath } from '#common/routes.ts';

const FILTERS = ['status', 'language', 'from', 'to', 'q'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

const filtersOf = (query: URLSearchParams): Filters =>
  Object.fromEntries(FILTERS.map((name) => [name, query.get(name) ?? ''])) as Filters;

export function StatusBadge({ status }: { status: MessageStatus }) {
  const { t } = useTranslation('console');
  return <span className={`status status--${status}`}>{t(`statuses.${status}`)}</span>;
}

/** The subject's label in the console's language, or its id for one the site no longer offers. */
export function useSubject() {
  const { t, i18n } = useTranslation('contact');
  return (subject: string) =>
    i18n.exists(`subjects.${subject}`, { ns: 'contact' }) ? t(`subjects.${subject}` as 'subjects.question') : subject;
}

function Row({ message }: { message: MessageSummary }) {
  const languageName = useLanguageName();
  const format = useFormat();
  const subject = useSubject();
  return (
    <tr className={message.status === 'new' ? 'inbox__row inbox__row--new' : 'inbox__row'}>
      <td>
        <StatusBadge status={message.status} />
      </td>
      <td>
        <ConsoleLink to={consolePath('message', { id: message.id })}>{message.name}</ConsoleLink>
        <span className="inbox__email">{message.email}</span>
      </td>
      <td>
        <span className="inbox__subject">{subject(message.subject)}</span>
        <span className="inbox__preview" dir="auto">
          {message.preview}
        </span>
      </td>
      <td>{languageName(message.language)}</td>
      <td>
        <time dateTime={message.createdAt}>{format.dateTime(message.createdAt)}</time>
      </td>
    </tr>
  );
}

/** Messages newest first, with the filters in the address so that a reload or a link keeps them. */
export function InboxPage({ query }: { query: URLSearchParams }) {
  const languageName = useLanguageName();
  const { t } = useTranslation('console');
  const errorToast = useErrorToast();
  const format = useFormat();
  const applied = filtersOf(query);
  const key = queryOf(applied);
  const [filters, setFilters] = useState<Filters>(applied);
  const [answer, setAnswer] = useState<MessagesAnswer | null>(null);
  const [more, setMore] = useState(false);
  useTitle(t('inbox.title'));

  useEffect(() => {
    let current = true;
    setFilters(filtersOf(new URLSearchParams(key)));
    setAnswer(null);
    void consoleCall<MessagesAnswer>(`${INBOX_API.messages}${key}`).then((result) => {
      if (!current) return;
      if (result.ok) setAnswer(result.data);
      else {
        setAnswer({ messages: [], next: null, counts: emptyCounts() });
        void errorToast(result.code);
      }
    });
    return () => {
      current = false;
    };
  }, [key]);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    navigate(consolePath('inbox', { query: queryOf(filters) }));
  };
  const loadMore = async () => {
    if (!answer?.next || more) return;
    setMore(true);
    const result = await consoleCall<MessagesAnswer>(
      `${INBOX_API.messages}${queryOf({ ...applied, before: answer.next })}`,
    );
    setMore(false);
    if (!result.ok) return void errorToast(result.code);
    setAnswer({ ...result.data, messages: [...answer.messages, ...result.data.messages] });
  };
  const set = (name: keyof Filters) => (value: string) => setFilters((current) => ({ ...current, [name]: value }));
  const counts = answer?.counts;
  const statusLabel = (status: MessageStatus) =>
    counts
      ? t('inbox.statusCount', { status: t(`statuses.${status}`), count: format.number(counts[status]) })
      : t(`statuses.${status}`);

  return (
    <>
      <h1>{t('inbox.title')}</h1>
      <form className="filters" aria-label={t('inbox.filters')} onSubmit={apply}>
        <label>
          <span>{t('inbox.status')}</span>
          <select value={filters.status || 'inbox'} onChange={(event) => set('status')(event.target.value)}>
            <option value="inbox">{t('statuses.inbox')}</option>
            {MESSAGE_STATUSES.map((status) => (
              <option key={status} value={status}>
                {statusLabel(status)}
              </option>
            ))}
            <option value="all">{t('statuses.all')}</option>
          </select>
        </label>
        <label>
          <span>{t('inbox.language')}</span>
          <select value={filters.language} onChange={(event) => set('language')(event.target.value)}>
            <option value="">{t('inbox.anyLanguage')}</option>
            {LANGUAGES.map((language) => (
              <option key={language} value={language}>
                {languageName(language)}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>{t('inbox.from')}</span>
          <input type="date" value={filters.from} onChange={(event) => set('from')(event.target.value)} />
        </label>
        <label>
          <span>{t('inbox.to')}</span>
          <input type="date" value={filters.to} onChange={(event) => set('to')(event.target.value)} />
        </label>
        <label className="filters__search">
          <span>{t('inbox.search')}</span>
          <input
            type="search"
            value={filters.q}
            maxLength={200}
            placeholder={t('inbox.searchHint')}
            onChange={(event) => set('q')(event.target.value)}
          />
        </label>
        <div className="filters__actions">
          <button type="submit" className="button button--small">
            {t('inbox.apply')}
          </button>
          {key && <ConsoleLink to={consolePath('inbox')}>{t('inbox.reset')}</ConsoleLink>}
        </div>
      </form>
      {!answer ? (
        <Loading />
      ) : answer.messages.length === 0 ? (
        <p className="console-empty" role="status">
          {t('inbox.empty')}
        </p>
      ) : (
        <>
          <ScrollTable tableClassName="inbox" caption={t('inbox.caption')}>
            <thead>
              <tr>
                <th scope="col">{t('inbox.columns.status')}</th>
                <th scope="col">{t('inbox.columns.from')}</th>
                <th scope="col">{t('inbox.columns.subject')}</th>
                <th scope="col">{t('inbox.columns.language')}</th>
                <th scope="col">{t('inbox.columns.received')}</th>
              </tr>
            </thead>
            <tbody>
              {answer.messages.map((message) => (
                <Row key={message.id} message={message} />
              ))}
            </tbody>
          </ScrollTable>
          {answer.next && (
            <p>
              <button
                type="button"
                className="button button--secondary"
                aria-disabled={more || undefined}
                onClick={loadMore}
              >
                {more ? t('loading') : t('inbox.more')}
              </button>
            </p>
          )}
        </>
      )}
    </>
  );
}

const emptyCounts = () =>
  Object.fromEntries(MESSAGE_STATUSES.map((status) => [status, 0])) as Record<MessageStatus, number>;
