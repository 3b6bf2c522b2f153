import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguageName } from '#client/console/format.ts';
import { ConsoleLink, Loading } from '#client/console/ui.tsx';
import { useTitle } from '#client/console/use-title.ts';
import { ScrollTable } from '#client/lib/ScrollTable.tsx';
import type { ErrorCode } from '#common/error-codes.ts';
import { consolePath, type PageId } from '#common/routes.ts';
import { type PublishPlan, TEXT_PART_NAMESPACES } from '#common/site-texts.ts';
import { textsApi } from './texts-api.ts';
import { PlaceholderList } from './texts-ui.tsx';
import './texts.css';

/**
 * The publish step: the drafts, the pages and languages they change, and what those pages still
 * show as placeholders. With placeholders left, publishing asks to be confirmed first.
 */
export default function TextsPublishPage() {
  const { t } = useTranslation('console');
  const { t: te } = useTranslation('errors');
  const languageName = useLanguageName();
  const [plan, setPlan] = useState<PublishPlan | null>(null);
  const [loadError, setLoadError] = useState<ErrorCode | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  const [error, setError] = useState<ErrorCode | null>(null);
  const [said, setSaid] = useState('');
  const [busy, setBusy] = useState(false);
  const confirmBox = useRef<HTMLInputElement>(null);
  const status = useRef<HTMLParagraphElement>(null);
  useTitle(t('texts.publish.title'));

  const load = useCallback(async () => {
    const result = await textsApi.plan();
    if (result.ok) {
      setPlan(result.data);
      setLoadError(null);
    } else setLoadError(result.code);
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const askToConfirm = (code: ErrorCode) => {
    setError(code);
    confirmBox.current?.focus();
  };
  const publish = async (event: FormEvent) => {
    event.preventDefault();
    if (!plan || busy) return;
    const placeholdersLeft = plan.placeholders.length > 0;
    if (placeholdersLeft && !confirmed) return askToConfirm('PLACEHOLDERS_LEFT');
    setBusy(true);
    setSaid('');
    const result = await textsApi.publish(placeholdersLeft && confirmed);
    setBusy(false);
    if (!result.ok) {
      // Someone else's draft may have brought placeholders in since the plan was read.
      if (result.code === 'PLACEHOLDERS_LEFT') {
        await load();
        return askToConfirm(result.code);
      }
      return setError(result.code);
    }
    setError(null);
    setConfirmed(false);
    setSaid(t('texts.publish.published', { count: result.data.drafts.length }));
    await load();
    status.current?.focus();
  };

  const pageName = (page: PageId) => t(`texts.pages.${page}`);
  // The chat's texts are on every page without being in any page's HTML: named apart.
  const chatLanguages = [
    ...new Set(
      (plan?.drafts ?? []).filter((draft) => TEXT_PART_NAMESPACES.includes(draft.namespace)).map((d) => d.language),
    ),
  ];
  const errorId = 'texts-publish-error';
  return (
    <div className="texts">
      <p className="console-back">
        <ConsoleLink to={consolePath('texts')}>{t('texts.back')}</ConsoleLink>
      </p>
      <h1>{t('texts.publish.title')}</h1>
      <p className="console-lead">{t('texts.publish.intro')}</p>
      <p ref={status} role="status" tabIndex={-1} className="texts__published">
        {said}
      </p>
      {loadError && <p className="field__error">{te(loadError)}</p>}
      {!plan && !loadError && <Loading />}
      {plan?.drafts.length === 0 && <p className="console-empty">{t('texts.publish.nothing')}</p>}
      {plan && plan.drafts.length > 0 && (
        <>
          <ScrollTable caption={t('texts.publish.drafts', { count: plan.drafts.length })}>
            <thead>
              <tr>
                <th scope="col">{t('texts.publish.columns.text')}</th>
                <th scope="col">{t('texts.publish.columns.language')}</th>
                <th scope="col">{t('texts.publish.columns.value')}</th>
              </tr>
            </thead>
            <tbody>
              {plan.drafts.map((draft) => (
                <tr key={`${draft.namespace}:${draft.language}:${draft.key}`}>
                  <th scope="row">
                    {t(`texts.namespaces.${draft.namespace}`)} <code>{draft.key}</code>
                  </th>
                  <td>{languageName(draft.language)}</td>
                  <td lang={draft.language} className="texts__value">
                    {draft.value}
                  </td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>

          <h2>{t('texts.publish.pages')}</h2>
          <ul className="texts__pages">
            {plan.pages.map(({ page, languages }) => (
              <li key={page}>
                {t('texts.publish.pageIn', {
                  page: pageName(page),
                  languages: languages.map((language) => languageName(language)).join(', '),
                })}
              </li>
            ))}
            {chatLanguages.length > 0 && (
              <li>
                {t('texts.publish.chatIn', {
                  languages: chatLanguages.map((language) => languageName(language)).join(', '),
                })}
              </li>
            )}
          </ul>

          {plan.placeholders.length > 0 && (
            <section className="console-note texts__placeholders" aria-labelledby="texts-placeholders">
              <h2 id="texts-placeholders">{t('texts.publish.placeholders')}</h2>
              <p>{t('texts.publish.placeholdersIntro')}</p>
              <PlaceholderList items={plan.placeholders} />
            </section>
          )}

          <form className="texts__publish" onSubmit={(event) => void publish(event)} noValidate>
            {plan.placeholders.length > 0 && (
              <p className="texts__confirm">
                <input
                  ref={confirmBox}
                  id="texts-publish-confirm"
                  type="checkbox"
                  checked={confirmed}
                  aria-invalid={error === 'PLACEHOLDERS_LEFT' || undefined}
                  aria-describedby={error ? errorId : undefined}
                  onChange={(event) => {
                    setConfirmed(event.target.checked);
                    if (event.target.checked) setError(null);
                  }}
                />{' '}
                <label htmlFor="texts-publish-confirm">{t('texts.publish.confirm')}</label>
              </p>
            )}
            {error && (
              <p id={errorId} className="field__error">
                {te(error)}
              </p>
            )}
            <button type="submit" className="button" aria-disabled={busy || undefined}>
              {t('texts.publish.submit', { count: plan.drafts.length })}
            </button>
          </form>
        </>
      )}
    </div>
  );
}
