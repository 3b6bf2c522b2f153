import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiFailure, ApiResult } from '#client/lib/api-client.ts';
import type { ErrorCode } from '#common/error-codes.ts';
import type { Language } from '#common/languages.ts';
import { type EditableNamespace, MAX_TEXT_LENGTH, type TextEntry } from '#common/site-texts.ts';
import { TextHistory } from './TextHistory.tsx';
import { textsApi } from './texts-api.ts';
import { StatusBadge } from './texts-ui.tsx';

/** The code to show beside the field: the field's own (`value`) when the server named one. */
const fieldError = (failure: ApiFailure): ErrorCode => failure.fields?.value ?? failure.code;

/**
 * One text: its key, the English text and the published one, and a form for its draft. A refused
 * draft shows the reason under the field, which takes the focus; "saved" is said in a polite status.
 */
export function TextEditor({
  namespace,
  language,
  entry,
  onChange,
  reload,
}: {
  namespace: EditableNamespace;
  language: Language;
  entry: TextEntry;
  onChange(next: TextEntry): void;
  reload(): Promise<void>;
}) {
  const { t, i18n } = useTranslation('console');
  const { t: te } = useTranslation('errors');
  const id = useId();
  const field = useRef<HTMLTextAreaElement>(null);
  const [value, setValue] = useState(entry.draft ?? entry.value);
  const [error, setError] = useState<ErrorCode | null>(null);
  const [said, setSaid] = useState('');
  const [busy, setBusy] = useState(false);
  const [historyOpen, setHistoryOpen] = useState(false);
  // An undo publishes another text: the field shows it, unless a draft is being written.
  const published = useRef(entry.value);
  useEffect(() => {
    if (published.current === entry.value) return;
    published.current = entry.value;
    if (entry.draft === null) setValue(entry.value);
  }, [entry.value, entry.draft]);
  const ids = {
    label: `${id}-label`,
    key: `${id}-key`,
    english: `${id}-english`,
    hint: `${id}-hint`,
    error: `${id}-error`,
    history: `${id}-history`,
  };

  const act = async <T,>(call: () => Promise<ApiResult<T>>, done: (data: T) => void) => {
    if (busy) return;
    setBusy(true);
    setSaid('');
    const result = await call();
    setBusy(false);
    if (!result.ok) {
      setError(fieldError(result));
      field.current?.focus();
      return;
    }
    setError(null);
    done(result.data);
  };
  const save = (event: FormEvent) => {
    event.preventDefault();
    void act(
      () => textsApi.saveDraft(namespace, language, entry.key, value),
      // The server answers the text as it now stands, its state included.
      (saved) => {
        onChange(saved);
        setSaid(t('texts.editor.saved', { key: entry.key }));
      },
    );
  };
  const drop = () =>
    void act(
      () => textsApi.dropDraft(namespace, language, entry.key),
      () => {
        onChange({ ...entry, draft: null });
        setValue(entry.value);
        setSaid(t('texts.editor.dropped', { key: entry.key }));
      },
    );

  const describedBy = [entry.placeholders.length > 0 ? ids.hint : '', error ? ids.error : ''].filter(Boolean).join(' ');
  return (
    <li className="text-entry">
      <div className="text-entry__head">
        <h3 className="text-entry__key">
          <code id={ids.key}>{entry.key}</code>
        </h3>
        <StatusBadge status={entry.status} />
        {entry.edited && <span className="status">{t('texts.editor.edited')}</span>}
        {entry.draft !== null && <span className="status texts__has-draft">{t('texts.editor.hasDraft')}</span>}
      </div>
      <dl className="text-entry__texts">
        <dt>{t('texts.editor.english')}</dt>
        <dd id={ids.english} lang="en">
          {entry.english}
        </dd>
        {language !== 'en' && (
          <>
            <dt>{t('texts.editor.published')}</dt>
            <dd lang={language}>{entry.value || <em lang={i18n.language}>{t('texts.editor.nothingPublished')}</em>}</dd>
          </>
        )}
      </dl>
      <form className="text-entry__form" onSubmit={save} noValidate>
        <label id={ids.label} htmlFor={`${id}-draft`}>
          {t('texts.editor.draft')}
        </label>
        {entry.placeholders.length > 0 && (
          <p id={ids.hint} className="field__hint">
            {t('texts.editor.keep')}{' '}
            {entry.placeholders.map((name) => (
              <code key={name} className="text-entry__placeholder">{`{{${name}}}`}</code>
            ))}
          </p>
        )}
        <textarea
          id={`${id}-draft`}
          ref={field}
          lang={language}
          rows={Math.min(8, Math.max(2, Math.ceil(value.length / 80)))}
          maxLength={MAX_TEXT_LENGTH}
          value={value}
          aria-labelledby={`${ids.label} ${ids.key} ${ids.english}`}
          aria-describedby={describedBy || undefined}
          aria-invalid={error ? true : undefined}
          onChange={(event) => setValue(event.target.value)}
        />
        {error && (
          <p id={ids.error} className="field__error">
            {te(error)}
          </p>
        )}
        <div className="toolbar">
          <button type="submit" className="button button--small" aria-disabled={busy || undefined}>
            {t('texts.editor.save')}
            <span className="visually-hidden"> – {entry.key}</span>
          </button>
          {entry.draft !== null && (
            <button
              type="button"
              className="button button--small button--secondary"
              aria-disabled={busy || undefined}
              onClick={drop}
            >
              {t('texts.editor.drop')}
              <span className="visually-hidden"> – {entry.key}</span>
            </button>
          )}
          <button
            type="button"
            className="button button--small button--secondary"
            aria-expanded={historyOpen}
            aria-controls={historyOpen ? ids.history : undefined}
            onClick={() => setHistoryOpen(!historyOpen)}
          >
            {t('texts.history.toggle')}
            <span className="visually-hidden"> – {entry.key}</span>
          </button>
        </div>
        <p role="status" className="text-entry__said">
          {said}
        </p>
      </form>
      {historyOpen && (
        <TextHistory
          id={ids.history}
          namespace={namespace}
          language={language}
          textKey={entry.key}
          onUndone={async () => {
            await reload();
          }}
        />
      )}
    </li>
  );
}
