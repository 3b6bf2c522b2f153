import { loaders as panelTexts } from 'virtual:texts/chat/panel';
import { type FormEvent, type KeyboardEvent, lazy, type Ref, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MessageTime } from '#client/lib/MessageTime.tsx';
import { useTextPart } from '#client/lib/use-text-part.ts';
import { CHAT_MESSAGE_MAX_LENGTH, type ChatMessage } from '#common/chat-api.ts';
import { isLanguage } from '#common/languages.ts';
import { pagePath } from '#common/routes.ts';
import { storageEntry } from '#common/storage.ts';
import { AvailabilityNote, awayNow } from './AvailabilityNote.tsx';
import {
  type ChatProblem,
  end,
  type PendingMessage,
  retry,
  saveEmail,
  send,
  setPanelOpen,
  start,
  typing,
  unreadOf,
  useChat,
  useUnread,
} from './chat-store.ts';
import '#client/lib/chat-messages.css';
import './chat.css';

/** Rating and transcript, fetched only once the team closed the conversation. */
const ChatEnding = lazy(() => import('./ChatEnding.tsx'));

/** The count of unread replies on the launcher, seen and heard as part of its name. */
export function UnreadBadge({ label }: { label: (count: number) => string }) {
  const unread = useUnread();
  if (unread === 0) return null;
  return (
    <>
      <span className="chat-launcher__badge" aria-hidden="true">
        {unread}
      </span>
      <span className="visually-hidden">{label(unread)}</span>
    </>
  );
}

function usePanelTexts(language: string) {
  const { i18n } = useTranslation();
  const loaded = useTextPart(panelTexts, language, 'chat', 'panel');
  return loaded ? i18n.getFixedT(loaded, 'chat', 'panel') : null;
}

type T = NonNullable<ReturnType<typeof usePanelTexts>>;

const SIGNED_IN_COOKIE = storageEntry('signedIn').name;
/** A signed-in visitor's replies go to their account's address: nothing to ask. */
const signedIn = () => document.cookie.split('; ').includes(`${SIGNED_IN_COOKIE}=1`);

interface PanelProps {
  open: boolean;
  onClose(): void;
  language: string;
}

/**
 * The chat panel: a labelled region beside the launcher. The messages are a live log, so a screen
 * reader reads each reply as it arrives; focus moves into the panel when it opens and back to the
 * launcher when it closes (Escape closes it). It holds the conversation for as long as the page
 * is open, whether it shows or not.
 */
export default function ChatPanel({ open, onClose, language }: PanelProps) {
  const t = usePanelTexts(language);
  useEffect(start, []);
  useEffect(() => {
    setPanelOpen(open);
    return () => setPanelOpen(false);
  }, [open]);
  if (!open) return null;
  // The launcher already points at the panel (aria-controls) while its texts arrive.
  if (!t) return <div id="chat-panel" hidden />;
  return <OpenPanel t={t} onClose={onClose} language={language} />;
}

function OpenPanel({ t, onClose, language }: { t: T; onClose(): void; language: string }) {
  const chat = useChat();
  const composer = useRef<HTMLTextAreaElement>(null);
  const panel = useRef<HTMLElement>(null);
  const log = useRef<HTMLOListElement>(null);
  const conversation = chat.conversation;
  const blocked = conversation?.blocked === true;
  const count = chat.messages.length + chat.pending.length;
  const away = awayNow(chat.availability);
  // Outside office hours nobody reads a first message live: where to answer is asked with it.
  const askEmail = away && !conversation && !signedIn();

  useEffect(() => {
    (composer.current ?? panel.current)?.focus();
  }, []);
  // The newest message in view as messages arrive (or are sent).
  useEffect(() => {
    if (count > 0) log.current?.lastElementChild?.scrollIntoView({ block: 'nearest' });
  }, [count]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
    }
  };
  const lastSeen = lastSeenByTeam(chat.messages, conversation?.operatorReadId ?? 0);
  const policy = pagePath(isLanguage(language) ? language : 'en', 'cookies');

  return (
    <section
      ref={panel}
      id="chat-panel"
      className="chat-panel"
      aria-labelledby="chat-panel-title"
      tabIndex={-1}
      onKeyDown={onKeyDown}
    >
      <header className="chat-panel__header">
        <h2 id="chat-panel-title">{t('title')}</h2>
        <button type="button" className="chat-panel__close" onClick={onClose}>
          <span aria-hidden="true">×</span>
          <span className="visually-hidden">{t('close')}</span>
        </button>
      </header>
      {/* Focusable, so that a keyboard can scroll back through a long conversation. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling area must be reachable by keyboard */}
      <div className="chat-panel__body" tabIndex={0}>
        {!conversation && chat.messages.length === 0 && (
          <div className="chat-panel__intro">
            {chat.ended && <p role="status">{t('ended')}</p>}
            {chat.availability && <AvailabilityNote t={t} availability={chat.availability} language={language} />}
            <p>{away ? t('introAway') : t('intro')}</p>
            <p className="chat-panel__small">
              {t('cookieNote')} <a href={policy}>{t('cookiePolicy')}</a>
            </p>
          </div>
        )}
        <div role="log" aria-live="polite" aria-label={t('log')}>
          <ol ref={log} className="chat-log">
            {chat.messages.map((message) => (
              <MessageItem
                key={message.id}
                message={message}
                t={t}
                seen={message.id === lastSeen}
                language={language}
              />
            ))}
            {chat.pending.map((pending) => (
              <PendingItem key={pending.clientMessageId} pending={pending} t={t} />
            ))}
          </ol>
        </div>
        <p className="chat-panel__status" role="status">
          {chat.connection === 'lost' ? t('reconnecting') : ''}
        </p>
        {/* Apart from the log, so that it is announced once and never read as a message. */}
        <p className="chat-panel__typing" role="status">
          {chat.teamTyping ? t('teamTyping') : ''}
        </p>
        {conversation && <ConversationNotices t={t} language={language} />}
        {conversation?.status === 'closed' && !conversation.blocked && (
          <Suspense fallback={null}>
            <ChatEnding language={language} email={conversation.email} />
          </Suspense>
        )}
      </div>
      {!blocked && <Composer t={t} ref={composer} askEmail={askEmail} />}
      {conversation && <EndConversation t={t} />}
    </section>
  );
}

/** The visitor's last message the team has read, to mark it "Seen". */
function lastSeenByTeam(messages: ChatMessage[], operatorReadId: number): number | null {
  const seen = messages.filter((m) => m.author === 'visitor' && m.id <= operatorReadId);
  return seen.at(-1)?.id ?? null;
}

function MessageItem({ message, t, seen, language }: { message: ChatMessage; t: T; seen: boolean; language: string }) {
  const mine = message.author === 'visitor';
  return (
    <li className={`chat-message ${mine ? 'chat-message--end' : 'chat-message--start chat-message--team'}`}>
      <span className="chat-message__author">
        {mine ? t('you') : t('team')} <MessageTime at={message.createdAt} language={language} />
      </span>
      <span className="visually-hidden">: </span>
      <span className="chat-message__body">{message.body}</span>
      {seen && <span className="chat-message__meta">{t('seen')}</span>}
    </li>
  );
}

function PendingItem({ pending, t }: { pending: PendingMessage; t: T }) {
  return (
    <li className="chat-message chat-message--end">
      <span className="chat-message__author">{t('you')}</span>
      <span className="visually-hidden">: </span>
      <span className="chat-message__body">{pending.body}</span>
      {pending.failed ? (
        <span className="chat-message__meta chat-message__meta--failed">
          {t('notSent')} {t(`errors.${pending.failed}`, { max: CHAT_MESSAGE_MAX_LENGTH })}{' '}
          <button
            type="button"
            className="link-button link-button--inline"
            onClick={() => retry(pending.clientMessageId)}
          >
            {t('retry')}
          </button>
        </span>
      ) : (
        <span className="chat-message__meta">{t('sending')}</span>
      )}
    </li>
  );
}

/** Who answers and how: online now, or later by mail (asking for an address); closed; blocked. */
function ConversationNotices({ t, language }: { t: T; language: string }) {
  const chat = useChat();
  const conversation = chat.conversation;
  if (!conversation) return null;
  if (conversation.blocked) return <p className="chat-notice">{t('blocked')}</p>;
  const waiting = unreadOf(chat) === 0 && chat.messages.at(-1)?.author === 'visitor';
  return (
    <>
      {conversation.status === 'closed' && <p className="chat-notice">{t('closedByTeam')}</p>}
      {conversation.operatorsOnline ? (
        waiting && <p className="chat-notice">{t('online')}</p>
      ) : (
        <div className="chat-notice">
          {/* With office hours, when the team is back says more than "nobody is online". */}
          {chat.availability?.hours ? (
            <AvailabilityNote t={t} availability={chat.availability} language={language} />
          ) : (
            <p>{t('offline')}</p>
          )}
          {conversation.email ? <p>{t('emailSaved', { email: conversation.email })}</p> : <EmailForm t={t} />}
        </div>
      )}
    </>
  );
}

function EmailForm({ t }: { t: T }) {
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<ChatProblem | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setProblem(await saveEmail(email.trim()));
    setBusy(false);
  };
  return (
    <form className="chat-email" onSubmit={submit} noValidate>
      <p>{t('emailAsk')}</p>
      <label htmlFor="chat-email">{t('emailLabel')}</label>
      <div className="chat-email__row">
        <input
          id="chat-email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'chat-email-problem' : undefined}
          required
        />
        <button type="submit" className="button button--small" aria-disabled={busy || undefined}>
          {t('emailSave')}
        </button>
      </div>
      {problem && (
        <p id="chat-email-problem" className="chat-error" role="alert">
          {t(`errors.${problem === 'email' ? 'email' : problem}`, { max: CHAT_MESSAGE_MAX_LENGTH })}
        </p>
      )}
    </form>
  );
}

function Composer({ t, ref, askEmail }: { t: T; ref: Ref<HTMLTextAreaElement>; askEmail: boolean }) {
  const [body, setBody] = useState('');
  const [email, setEmail] = useState('');
  const [missingEmail, setMissingEmail] = useState(false);
  const emailField = useRef<HTMLInputElement>(null);
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const text = body.trim();
    if (!text) return;
    if (askEmail && !email.trim()) {
      setMissingEmail(true);
      emailField.current?.focus();
      return;
    }
    setMissingEmail(false);
    send(text, askEmail ? email.trim() : undefined);
    setBody('');
  };
  return (
    <form className="chat-composer" onSubmit={submit}>
      {askEmail && (
        <div className="chat-composer__email">
          <label htmlFor="chat-first-email">{t('emailFirst')}</label>
          <input
            ref={emailField}
            id="chat-first-email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            aria-invalid={missingEmail || undefined}
            aria-describedby={missingEmail ? 'chat-first-email-problem' : undefined}
            required
          />
          {missingEmail && (
            <p id="chat-first-email-problem" className="chat-error" role="alert">
              {t('errors.email')}
            </p>
          )}
        </div>
      )}
      <label htmlFor="chat-message" className="visually-hidden">
        {t('message')}
      </label>
      <textarea
        ref={ref}
        id="chat-message"
        rows={2}
        maxLength={CHAT_MESSAGE_MAX_LENGTH}
        value={body}
        placeholder={t('message')}
        onChange={(event) => {
          setBody(event.target.value);
          typing();
        }}
        onKeyDown={(event) => {
          // Enter sends, Shift+Enter starts a new line; a composing input method keeps its Enter.
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            submit();
          }
        }}
      />
      <button type="submit" className="button">
        {t('send')}
      </button>
    </form>
  );
}

function EndConversation({ t }: { t: T }) {
  const [asking, setAsking] = useState(false);
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) confirm.current?.focus();
  }, [asking]);
  if (!asking) {
    return (
      <div className="chat-panel__footer">
        <button type="button" className="link-button link-button--inline" onClick={() => setAsking(true)}>
          {t('end')}
        </button>
      </div>
    );
  }
  return (
    <fieldset className="chat-panel__footer">
      <legend>{t('endQuestion')}</legend>
      <button
        ref={confirm}
        type="button"
        className="button button--small button--danger"
        onClick={() =>
          void end().then((ended) => {
            // Its buttons are gone: the visitor continues from the message field.
            if (ended) document.getElementById('chat-message')?.focus();
          })
        }
      >
        {t('endConfirm')}
      </button>{' '}
      <button type="button" className="button button--small button--secondary" onClick={() => setAsking(false)}>
        {t('endCancel')}
      </button>
    </fieldset>
  );
}
