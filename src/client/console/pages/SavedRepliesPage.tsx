import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { consoleCall } from '#client/console/api.ts';
import { Loading } from '#client/console/ui.tsx';
import { useTitle } from '#client/console/use-title.ts';
import { useErrorToast } from '#client/lib/toast/use-error-toast.ts';
import { useToast } from '#client/lib/toast/use-toast.ts';
import { CHAT_MESSAGE_MAX_LENGTH } from '#common/chat-api.ts';
import { CHAT_DESK_API, type SavedRepliesAnswer, type SavedReply } from '#common/chat-desk-api.ts';
import type { ErrorCode } from '#common/error-codes.ts';
import { LANGUAGE_NAMES, LANGUAGES, type Language } from '#common/languages.ts';
import './saved-replies.css';

type Draft = { id: number | null; shortcut: string; texts: Record<Language, string> };

const emptyTexts = () => Object.fromEntries(LANGUAGES.map((language) => [language, ''])) as Record<Language, string>;
const draftOf = (reply: SavedReply | null): Draft => ({
  id: reply?.id ?? null,
  shortcut: reply?.shortcut ?? '',
  texts: { ...emptyTexts(), ...reply?.texts },
});

/** The admins' list of saved replies, each with a text per language; operators use them in the chat. */
export default function SavedRepliesPage() {
  const { t } = useTranslation('console');
  useTitle(t('savedReplies.title'));
  const [replies, setReplies] = useState<SavedReply[] | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const errorToast = useErrorToast();
  const load = useCallback(async () => {
    const result = await consoleCall<SavedRepliesAnswer>(CHAT_DESK_API.savedReplies);
    if (result.ok) setReplies(result.data.savedReplies);
    else errorToast(result.code);
  }, [errorToast]);
  useEffect(() => {
    void load();
  }, [load]);

  return (
    <>
      <h1>{t('savedReplies.title')}</h1>
      <p className="saved-replies__intro">{t('savedReplies.intro')}</p>
      {!replies ? (
        <Loading />
      ) : (
        <>
          {replies.length === 0 && <p>{t('savedReplies.empty')}</p>}
          <ul className="saved-replies">
            {replies.map((reply) => (
              <ReplyRow key={reply.id} reply={reply} onEdit={() => setDraft(draftOf(reply))} reload={load} />
            ))}
          </ul>
          {draft ? (
            <ReplyForm
              key={draft.id ?? 'new'}
              initial={draft}
              onDone={async () => {
                setDraft(null);
                await load();
              }}
            />
          ) : (
            <button type="button" className="button" onClick={() => setDraft(draftOf(null))}>
              {t('savedReplies.new')}
            </button>
          )}
        </>
      )}
    </>
  );
}

function ReplyRow({ reply, onEdit, reload }: { reply: SavedReply; onEdit(): void; reload(): Promise<void> }) {
  const { t } = useTranslation('console');
  const toast = useToast();
  const errorToast = useErrorToast();
  const [confirming, setConfirming] = useState(false);
  const languages = LANGUAGES.filter((language) => reply.texts[language]);
  const remove = async () => {
    const result = await consoleCall(CHAT_DESK_API.deleteSavedReply(reply.id), {});
    if (!result.ok) return void errorToast(result.code);
    toast.show({ type: 'success', message: t('savedReplies.deleted') });
    await reload();
  };
  return (
    <li className="saved-replies__item">
      <p className="saved-replies__shortcut">/{reply.shortcut}</p>
      <p className="saved-replies__text">{reply.texts.en ?? reply.texts[languages[0] ?? 'en']}</p>
      <p className="saved-replies__languages">
        {t('savedReplies.languages', { list: languages.map((language) => LANGUAGE_NAMES[language]).join(', ') })}
      </p>
      <div className="toolbar">
        <button type="button" className="button button--small button--secondary" onClick={onEdit}>
          {t('savedReplies.edit', { shortcut: reply.shortcut })}
        </button>
        {confirming ? (
          <>
            <button type="button" className="button button--small button--danger" onClick={() => void remove()}>
              {t('savedReplies.deleteConfirm')}
              <span className="visually-hidden"> – /{reply.shortcut}</span>
            </button>
            <button
              type="button"
              className="button button--small button--secondary"
              onClick={() => setConfirming(false)}
            >
              {t('savedReplies.cancel')}
            </button>
          </>
        ) : (
          <button type="button" className="button button--small button--danger" onClick={() => setConfirming(true)}>
            {t('savedReplies.delete')}
            <span className="visually-hidden"> – /{reply.shortcut}</span>
          </button>
        )}
      </div>
    </li>
  );
}

function ReplyForm({ initial, onDone }: { initial: Draft; onDone(): Promise<void> }) {
  const { t } = useTranslation('console');
  const { t: te } = useTranslation('errors');
  const toast = useToast();
  const errorToast = useErrorToast();
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<Record<string, ErrorCode>>({});
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const texts = Object.fromEntries(Object.entries(draft.texts).filter(([, text]) => text.trim() !== ''));
    if (Object.keys(texts).length === 0) return setErrors({ texts: 'MISSING_REQUIRED_FIELD' });
    const body = { shortcut: draft.shortcut, texts };
    const result = await consoleCall(
      draft.id === null ? CHAT_DESK_API.savedReplies : CHAT_DESK_API.savedReply(draft.id),
      body,
    );
    if (!result.ok) {
      if (result.fields) return setErrors(result.fields as Record<string, ErrorCode>);
      return void errorToast(result.code);
    }
    toast.show({ type: 'success', message: t('savedReplies.saved') });
    await onDone();
  };
  const error = (field: string) =>
    errors[field] ? (
      <p id={`saved-reply-${field}-error`} className="field__error">
        {field === 'texts' ? t('savedReplies.missingText') : te(errors[field] as ErrorCode)}
      </p>
    ) : null;
  return (
    <form className="saved-replies__form" onSubmit={(event) => void submit(event)} noValidate>
      <h2 ref={heading} tabIndex={-1}>
        {draft.id === null ? t('savedReplies.new') : t('savedReplies.edit', { shortcut: initial.shortcut })}
      </h2>
      <label htmlFor="saved-reply-shortcut">{t('savedReplies.shortcut')}</label>
      <p id="saved-reply-shortcut-hint" className="saved-replies__hint">
        {t('savedReplies.shortcutHint')}
      </p>
      <input
        id="saved-reply-shortcut"
        value={draft.shortcut}
        maxLength={32}
        required
        aria-invalid={errors.shortcut ? true : undefined}
        aria-describedby={`saved-reply-shortcut-hint${errors.shortcut ? ' saved-reply-shortcut-error' : ''}`}
        onChange={(event) => setDraft({ ...draft, shortcut: event.target.value })}
      />
      {error('shortcut')}
      {error('texts')}
      {LANGUAGES.map((language) => {
        const field = `texts.${language}`;
        return (
          <div key={language} className="saved-replies__text-field">
            <label htmlFor={`saved-reply-${language}`}>
              {t('savedReplies.textIn', { language: LANGUAGE_NAMES[language] })}
            </label>
            <textarea
              id={`saved-reply-${language}`}
              lang={language}
              rows={3}
              maxLength={CHAT_MESSAGE_MAX_LENGTH}
              value={draft.texts[language]}
              aria-invalid={errors[field] ? true : undefined}
              aria-describedby={errors[field] ? `saved-reply-${field}-error` : undefined}
              onChange={(event) => setDraft({ ...draft, texts: { ...draft.texts, [language]: event.target.value } })}
            />
            {error(field)}
          </div>
        );
      })}
      <div className="toolbar">
        <button type="submit" className="button">
          {draft.id === null ? t('savedReplies.add') : t('savedReplies.save')}
        </button>
        <button type="button" className="button button--secondary" onClick={() => void onDone()}>
          {t('savedReplies.cancel')}
        </button>
      </div>
    </form>
  );
}
