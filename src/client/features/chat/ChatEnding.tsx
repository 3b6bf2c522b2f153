import { loaders as endingTexts } from 'virtual:texts/chat/ending';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callApi } from '#client/lib/api-client.ts';
import { useTextPart } from '#client/lib/use-text-part.ts';
import { CHAT_ENDING_API, RATING_COMMENT_MAX_LENGTH } from '#common/chat-desk-api.ts';
import './chat-ending.css';

/**
 * What a conversation the team closed offers its visitor: a rating from 1 to 5 with a comment, and
 * the conversation by email (to the address it has, or one typed here). Loaded on its own, only
 * when a conversation is closed, so the panel stays small.
 */
export default function ChatEnding({ language, email }: { language: string; email: string | null }) {
  const t = useEndingTexts(language);
  if (!t) return null;
  return (
    <div className="chat-ending">
      <Rating t={t} />
      <Transcript t={t} email={email} />
    </div>
  );
}

function useEndingTexts(language: string) {
  const { i18n } = useTranslation();
  const loaded = useTextPart(endingTexts, language, 'chat', 'ending');
  return loaded ? i18n.getFixedT(loaded, 'chat', 'ending') : null;
}

type T = NonNullable<ReturnType<typeof useEndingTexts>>;

function Rating({ t }: { t: T }) {
  const id = useId();
  const [score, setScore] = useState<number | null>(null);
  const [comment, setComment] = useState('');
  const [state, setState] = useState<'editing' | 'sent' | 'failed'>('editing');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (score === null) return;
    const result = await callApi(CHAT_ENDING_API.rating, { score, comment });
    setState(result.ok ? 'sent' : 'failed');
  };
  if (state === 'sent') {
    return (
      <p className="chat-ending__done" role="status">
        {t('thanks')}{' '}
        <button type="button" className="link-button link-button--inline" onClick={() => setState('editing')}>
          {t('change')}
        </button>
      </p>
    );
  }
  return (
    <form className="chat-ending__rating" onSubmit={submit}>
      <fieldset>
        <legend>
          <strong>{t('title')}</strong> <span className="chat-ending__scale">{t('scale')}</span>
        </legend>
        <div className="chat-ending__scores">
          {[1, 2, 3, 4, 5].map((value) => (
            <label key={value} className="chat-ending__score">
              <input
                type="radio"
                name={`${id}-score`}
                value={value}
                checked={score === value}
                onChange={() => setScore(value)}
              />
              <span>{value}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <label htmlFor={`${id}-comment`}>{t('comment')}</label>
      <textarea
        id={`${id}-comment`}
        rows={2}
        maxLength={RATING_COMMENT_MAX_LENGTH}
        value={comment}
        onChange={(event) => setComment(event.target.value)}
      />
      <button type="submit" className="button button--small" aria-disabled={score === null || undefined}>
        {t('send')}
      </button>
      {state === 'failed' && (
        <p className="chat-error" role="alert">
          {t('failed')}
        </p>
      )}
    </form>
  );
}

function Transcript({ t, email }: { t: T; email: string | null }) {
  const id = useId();
  const [asking, setAsking] = useState(false);
  const [address, setAddress] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [problem, setProblem] = useState<'emailInvalid' | 'failed' | null>(null);
  const send = async (to: string | null) => {
    const result = await callApi<{ email: string }>(CHAT_ENDING_API.transcript, to ? { email: to } : {});
    if (result.ok) {
      setSentTo(result.data.email);
      setProblem(null);
    } else setProblem(result.fields?.email ? 'emailInvalid' : 'failed');
  };
  if (sentTo) {
    return (
      <p className="chat-ending__done" role="status">
        {t('transcriptSent', { email: sentTo })}
      </p>
    );
  }
  if (!asking) {
    return (
      <>
        <button
          type="button"
          className="button button--small button--secondary"
          onClick={() => (email ? void send(null) : setAsking(true))}
        >
          {t('transcript')}
        </button>
        {problem && (
          <p className="chat-error" role="alert">
            {t(problem)}
          </p>
        )}
      </>
    );
  }
  return (
    <form
      className="chat-email"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void send(address.trim());
      }}
    >
      <label htmlFor={`${id}-email`}>{t('email')}</label>
      <div className="chat-email__row">
        <input
          id={`${id}-email`}
          type="email"
          autoComplete="email"
          required
          value={address}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
          onChange={(event) => setAddress(event.target.value)}
        />
        <button type="submit" className="button button--small">
          {t('transcriptSend')}
        </button>
      </div>
      {problem && (
        <p id={`${id}-problem`} className="chat-error" role="alert">
          {t(problem)}
        </p>
      )}
    </form>
  );
}
