import { loaders as consoleTexts } from 'virtual:texts/chat/console';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguageName } from '#client/console/format.ts';
import { MessageTime } from '#client/lib/MessageTime.tsx';
import { useTextPart } from '#client/lib/use-text-part.ts';
import type { ConsoleConversation, ConsoleMessage } from '#common/chat-api.ts';
import { CHAT_MESSAGE_MAX_LENGTH } from '#common/chat-api.ts';
import { isLanguage } from '#common/languages.ts';
import { BlockVisitor } from './BlockVisitor.tsx';
import {
  blockSelected,
  closeSelected,
  type ListStatus,
  reply,
  retryReply,
  revisit,
  select,
  showList,
  stop,
  useConsoleChat,
} from './console-store.ts';
import { operatorTyping, useVisitorTyping } from './typing-store.ts';
import { visitorLabel } from './visitor-label.ts';
import '#client/lib/chat-messages.css';
import './chat-console.css';

function useConsoleTexts() {
  const { i18n } = useTranslation();
  const loaded = useTextPart(consoleTexts, isLanguage(i18n.language) ? i18n.language : 'en', 'chat', 'console');
  return loaded ? i18n.getFixedT(loaded, 'chat', 'console') : null;
}

type T = NonNullable<ReturnType<typeof useConsoleTexts>>;

/**
 * The operators' chat, for the console to mount on its chat screen: the conversations live with
 * unread counts, newest activity first; the selected one with the visitor's language, page and
 * address, a reply field, close and block; who of the team is online. `headingLevel` fits it
 * under the console's own heading.
 */
export function ChatConsole({ headingLevel = 1 }: { headingLevel?: 1 | 2 }) {
  const t = useConsoleTexts();
  const chat = useConsoleChat();
  useEffect(() => {
    void showList('open');
    document.addEventListener('visibilitychange', revisit);
    return () => {
      document.removeEventListener('visibilitychange', revisit);
      stop();
    };
  }, []);
  if (!t) return null;
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  const Sub = headingLevel === 1 ? 'h2' : 'h3';
  return (
    <div className="chat-console">
      <div className="chat-console__top">
        <Heading>{t('title')}</Heading>
        <p className="chat-console__presence">
          {t('team')}: {chat.operators.length > 0 ? chat.operators.map((o) => o.name).join(', ') : t('nobody')}
        </p>
        <p className="chat-console__connection" role="status">
          {chat.connection === 'lost' ? t('reconnecting') : ''}
        </p>
      </div>
      <div className="chat-console__columns">
        <nav className="chat-console__list" aria-labelledby="chat-console-list">
          <Sub id="chat-console-list">{t('listLabel')}</Sub>
          <StatusTabs t={t} status={chat.status} />
          {chat.loaded && chat.conversations.length === 0 ? (
            <p>{t('empty')}</p>
          ) : (
            <ul>
              {chat.conversations.map((conversation) => (
                <li key={conversation.id}>
                  <ConversationButton t={t} conversation={conversation} selected={chat.selected === conversation.id} />
                </li>
              ))}
            </ul>
          )}
        </nav>
        <section className="chat-console__thread" aria-labelledby="chat-console-thread">
          {chat.thread ? (
            <Thread t={t} Sub={Sub} />
          ) : (
            <>
              <Sub id="chat-console-thread" className="visually-hidden">
                {t('title')}
              </Sub>
              <p>{t('choose')}</p>
            </>
          )}
        </section>
      </div>
    </div>
  );
}

function StatusTabs({ t, status }: { t: T; status: ListStatus }) {
  return (
    <div className="chat-console__tabs">
      {(['open', 'closed'] as const).map((value) => (
        <button
          key={value}
          type="button"
          className="button button--small button--secondary"
          aria-pressed={status === value}
          onClick={() => void showList(value)}
        >
          {t(value)}
        </button>
      ))}
    </div>
  );
}

const visitorName = (t: T, conversation: ConsoleConversation) =>
  visitorLabel(conversation, t('visitor', { id: conversation.id }));

function ConversationButton({
  t,
  conversation,
  selected,
}: {
  t: T;
  conversation: ConsoleConversation;
  selected: boolean;
}) {
  const languageName = useLanguageName();
  return (
    <button
      type="button"
      className="chat-console__item"
      aria-current={selected ? 'true' : undefined}
      onClick={() => void select(conversation.id)}
    >
      <span className="chat-console__item-top">
        <strong>{visitorName(t, conversation)}</strong>
        {conversation.unread > 0 && (
          <span className="chat-console__unread">{t('unread', { count: conversation.unread })}</span>
        )}
      </span>
      <span className="chat-console__excerpt">{conversation.lastMessage?.excerpt ?? ''}</span>
      <span className="chat-console__meta">
        {languageName(conversation.language)} · {conversation.page}
        {conversation.blocked ? ` · ${t('blocked')}` : ''}
      </span>
    </button>
  );
}

function Thread({ t, Sub }: { t: T; Sub: 'h2' | 'h3' }) {
  const chat = useConsoleChat();
  const languageName = useLanguageName();
  const visitorTyping = useVisitorTyping(chat.thread?.conversation.id ?? 0);
  const log = useRef<HTMLOListElement>(null);
  const thread = chat.thread;
  const count = (thread?.messages.length ?? 0) + chat.pending.length;
  useEffect(() => {
    if (count > 0) log.current?.lastElementChild?.scrollIntoView({ block: 'nearest' });
  }, [count]);
  if (!thread) return null;
  const { conversation, messages } = thread;
  return (
    <>
      <Sub id="chat-console-thread">{visitorName(t, conversation)}</Sub>
      <dl className="chat-console__facts">
        <div>
          <dt>{t('language')}</dt>
          <dd>{languageName(conversation.language)}</dd>
        </div>
        <div>
          <dt>{t('page')}</dt>
          <dd>{conversation.page}</dd>
        </div>
        <div>
          <dt>{t('email')}</dt>
          <dd>{conversation.visitorEmail ?? conversation.account?.email ?? t('noEmail')}</dd>
        </div>
        {conversation.account && (
          <div>
            <dt>{t('account')}</dt>
            <dd>{conversation.account.name}</dd>
          </div>
        )}
      </dl>
      {conversation.visitorEnded && <p className="chat-notice">{t('ended')}</p>}
      <div role="log" aria-live="polite" aria-labelledby="chat-console-thread">
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling area must be reachable by keyboard */}
        <ol ref={log} className="chat-console__log" tabIndex={0}>
          {messages.map((message) => (
            <MessageItem key={message.id} t={t} message={message} conversation={conversation} />
          ))}
          {chat.pending.map((pending) => (
            <li key={pending.clientMessageId} className="chat-message chat-message--end chat-message--team">
              <span className="chat-message__author">{t('team')}</span>
              <span className="visually-hidden">: </span>
              <span className="chat-message__body">{pending.body}</span>
              {pending.failed && (
                <span className="chat-message__meta chat-message__meta--failed">
                  {t('failed')}{' '}
                  <button
                    type="button"
                    className="link-button link-button--inline"
                    onClick={() => retryReply(pending.clientMessageId)}
                  >
                    {t('send')}
                  </button>
                </span>
              )}
            </li>
          ))}
        </ol>
      </div>
      <p className="chat-console__typing" role="status">
        {visitorTyping ? t('visitorTyping', { name: visitorName(t, conversation) }) : ''}
      </p>
      <ReplyForm t={t} key={conversation.id} conversationId={conversation.id} />
      <div className="chat-console__actions">
        {conversation.status === 'open' && (
          <button type="button" className="button button--small button--secondary" onClick={() => void closeSelected()}>
            {t('close')}
          </button>
        )}
        <BlockVisitor
          blocked={conversation.blocked}
          texts={{
            block: t('block'),
            unblock: t('unblock'),
            question: t('blockQuestion'),
            confirm: t('blockConfirm'),
            cancel: t('blockCancel'),
          }}
          onChange={(blocked) => void blockSelected(blocked)}
        />
      </div>
      {chat.failed && (
        <p className="chat-console__failed" role="alert">
          {t('failed')}
        </p>
      )}
    </>
  );
}

function MessageItem({
  t,
  message,
  conversation,
}: {
  t: T;
  message: ConsoleMessage;
  conversation: ConsoleConversation;
}) {
  const fromVisitor = message.author === 'visitor';
  const author = fromVisitor ? visitorName(t, conversation) : (message.operatorName ?? t('team'));
  const { i18n } = useTranslation();
  return (
    <li className={`chat-message ${fromVisitor ? 'chat-message--start' : 'chat-message--end chat-message--team'}`}>
      <span className="chat-message__author">
        {author} <MessageTime at={message.createdAt} language={i18n.language} />
      </span>
      <span className="visually-hidden">: </span>
      <span className="chat-message__body">{message.body}</span>
      {!fromVisitor && message.id <= conversation.visitorReadId && (
        <span className="chat-message__meta">{t('seenByVisitor')}</span>
      )}
    </li>
  );
}

function ReplyForm({ t, conversationId }: { t: T; conversationId: number }) {
  const [body, setBody] = useState('');
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const text = body.trim();
    if (!text) return;
    reply(text);
    setBody('');
  };
  return (
    <form className="chat-console__reply" onSubmit={submit}>
      <label htmlFor="chat-console-reply">{t('replyLabel')}</label>
      <textarea
        id="chat-console-reply"
        rows={3}
        maxLength={CHAT_MESSAGE_MAX_LENGTH}
        value={body}
        onChange={(event) => {
          setBody(event.target.value);
          operatorTyping(conversationId);
        }}
        onKeyDown={(event) => {
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
