import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '#client/console/format.ts';
import { Loading } from '#client/console/ui.tsx';
import type { ErrorCode } from '#common/error-codes.ts';
import type { Language } from '#common/languages.ts';
import type { EditableNamespace, TextHistoryEntry } from '#common/site-texts.ts';
import { textsApi } from './texts-api.ts';

/**
 * What was published for one text, newest first, and the undo that publishes the one before the
 * last again (or the shipped text). Its outcome is said in a polite status inside the panel.
 */
export function TextHistory({
  id,
  namespace,
  language,
  textKey,
  onUndone,
}: {
  id: string;
  namespace: EditableNamespace;
  language: Language;
  textKey: string;
  onUndone(): Promise<void>;
}) {
  const { t } = useTranslation('console');
  const { t: te } = useTranslation('errors');
  const format = useFormat();
  const [history, setHistory] = useState<TextHistoryEntry[] | null>(null);
  const [error, setError] = useState<ErrorCode | null>(null);
  const [said, setSaid] = useState('');
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    const result = await textsApi.history(namespace, language, textKey);
    if (result.ok) setHistory(result.data.history);
    else setError(result.code);
  }, [namespace, language, textKey]);
  useEffect(() => {
    void load();
  }, [load]);

  const undo = async () => {
    if (busy) return;
    setBusy(true);
    setSaid('');
    const result = await textsApi.undo(namespace, language, textKey);
    setBusy(false);
    if (!result.ok) return setError(result.code);
    setError(null);
    setSaid(t('texts.history.undone', { key: textKey }));
    await Promise.all([load(), onUndone()]);
  };

  const titleId = `${id}-title`;
  return (
    <section id={id} className="text-history" aria-labelledby={titleId}>
      <h4 id={titleId}>{t('texts.history.title', { key: textKey })}</h4>
      {!history && !error && <Loading />}
      {history?.length === 0 && <p className="console-empty">{t('texts.history.empty')}</p>}
      {history && history.length > 0 && (
        <>
          <ol className="text-history__list">
            {history.map((item) => (
              <li key={item.id}>
                {item.value === null ? (
                  <p className="text-history__value">
                    <em>{t('texts.history.shipped')}</em>
                  </p>
                ) : (
                  <p className="text-history__value" lang={language}>
                    {item.value}
                  </p>
                )}
                <p className="text-history__meta">
                  {t('texts.history.by', { name: item.by, date: format.dateTime(item.at) })}
                </p>
              </li>
            ))}
          </ol>
          <button
            type="button"
            className="button button--small button--secondary"
            aria-disabled={busy || undefined}
            onClick={() => void undo()}
          >
            {t('texts.history.undo')}
            <span className="visually-hidden"> – {textKey}</span>
          </button>
        </>
      )}
      {error && <p className="field__error">{te(error)}</p>}
      <p role="status" className="text-entry__said">
        {said}
      </p>
    </section>
  );
}
