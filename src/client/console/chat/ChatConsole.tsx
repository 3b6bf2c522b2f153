import { loaders as consoleTexts } from 'virtual:texts/chat/console';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguageName } from '#client/console/format.ts';
import { MessageTime } from '#client/lib/MessageTime.tsx';
import { useTextPart } from '#client/lib/use-text-part.ts';
import type { ConsoleConversation, ConsoleMessage } from '#common/chat-api.ts';
import { CHAT_MESSAGE_MAX_LENGTH } from '#common/chat-api.ts';
import type { ChatView } from '#common/chat-desk-api.ts';
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
import { AssignControl } from './desk/AssignControl.tsx';
import { AssignedToMe } from './desk/AssignedToMe.tsx';
import { useSavedReplyPicker } from './desk/SavedReplyPicker.tsx';
import { type DeskT, useDeskTexts } from './desk/use-desk-texts.ts';
import { inView, ViewTabs } from './desk/ViewTabs.tsx';
import { operatorTyping, useVisitorTyping } from './typing-store.ts';
import { visitorLabel } from './visitor-label.ts';
import '#client/lib/chat-messages.css';
import './desk/chat-desk.css';
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
export function ChatConsole({ headingLevel = 1, me = '' }: { headingLevel?: 1 | 2; me?: string }) {
  const t = useConsoleTexts();
  const td = useDeskTexts();
  const chat = useConsoleChat();
  const [view, setView] = useState<ChatView>('all');
  useEffect(() => {
    void showList('open');
    // A link from a mail or the search names the conversation to open.
    const named = Number(new URLSearchParams(window.location.search).get('conversation'));
    if (Number.isInteger(named) && named > 0) void select(named);
    document.addEventListener('visibilitychange', revisit);
    return () => {
      document.removeEventListener('visibilitychange', revisit);
      stop();
    };
  }, []);
  if (!t || !td) return null;
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
        <AssignedToMe t={td} conversations={chat.conversations} me={me} nameOf={(c) => visitorName(t, c)} />
      </div>
      <div className="chat-console__columns">
        <nav className="chat-console__list" aria-labelledby="chat-console-list">
          <Sub id="chat-console-list">{t('listLabel')}</Sub>
          <StatusTabs t={t} status={chat.status} />
          <ViewTabs t={td} view={view} onChange={setView} />
          {chat.loaded && chat.conversations.filter(inView(view, me)).length === 0 ? (
            <p>{t('empty')}</p>
          ) : (
            <ul>
              {chat.conversations.filter(inView(view, me)).map((conversation) => (
                <li key={conversation.id}>
                  <ConversationButton t={t} conversation={conversation} selected={chat.selected === conversation.id} />
                </li>
              ))}
            </ul>
          )}
        </nav>
        <section className="chat-console__thread" aria-labelledby="chat-console-thread">
          {chat.thread ? (
            <Thread t={t} td={td} Sub={Sub} me={me} />
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
        {conversation.assignee ? ` · ${conversation.assignee.name}` : ''}
      </span>
    </button>
  );
}

function Thread({ t, td, Sub, me }: { t: T; td: DeskT; Sub: 'h2' | 'h3'; me: string }) {
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
      {me && <AssignControl t={td} conversation={conversation} me={me} />}
      {conversation.visitorEnded && <p className="chat-notice">{t('ended')}</p>}
      <div role="log" aria-live="polite" aria-labelledby="chat-console-thread">
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling area must be reachable by keyboard */}
        <ol ref={log} className="chat-console__log" tabIndex={0}>
          {messages.map((message) => (
            <MessageItem key={message.id} t={t} message={message} conversation={conversation} note={td('note')} />
          ))}
          {chat.pending.map((pending) => (
            <li
              key={pending.clientMessageId}
              className={`chat-message chat-message--end chat-message--team${pending.note ? ' chat-message--note' : ''}`}
            >
              <span className="chat-message__author">{pending.note ? td('note') : t('team')}</span>
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
      <ReplyForm t={t} td={td} conversation={conversation} key={conversation.id} />
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
  note,
}: {
  t: T;
  message: ConsoleMessage;
  conversation: ConsoleConversation;
  /** What marks an internal note, which the visitor never sees. */
  note: string;
}) {
  const fromVisitor = message.author === 'visitor';
  const isNote = message.author === 'note';
  const name = fromVisitor ? visitorName(t, conversation) : (message.operatorName ?? t('team'));
  const author = isNote ? `${note} · ${name}` : name;
  const side = fromVisitor ? 'chat-message--start' : 'chat-message--end chat-message--team';
  const { i18n } = useTranslation();
  return (
    <li className={`chat-message ${side}${isNote ? ' chat-message--note' : ''}`}>
      <span className="chat-message__author">
        {author} <MessageTime at={message.createdAt} language={i18n.language} />
      </span>
      <span className="visually-hidden">: </span>
      <span className="chat-message__body">{message.body}</span>
      {!fromVisitor && !isNote && message.id <= conversation.visitorReadId && (
        <span className="chat-message__meta">{t('seenByVisitor')}</span>
      )}
    </li>
  );
}

function ReplyForm({ t, td, conversation }: { t: T; td: DeskT; conversation: ConsoleConversation }) {
  const [body, setBody] = useState('');
  const [note, setNote] = useState(false);
  const field = useRef<HTMLTextAreaElement>(null);
  const picker = useSavedReplyPicker({ t: td, conversation, body, setBody, field });
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const text = body.trim();
    if (!text) return;
    reply(text, note);
    setBody('');
  };
  return (
    <form className={`chat-console__reply${note ? ' chat-desk__note-mode' : ''}`} onSubmit={submit}>
      <label htmlFor="chat-console-reply">{note ? td('note') : t('replyLabel')}</label>
      <p id={picker.hintId} className="chat-desk__hint">
        {td('savedHint')}
      </p>
      <textarea
        ref={field}
        id="chat-console-reply"
        rows={3}
        maxLength={CHAT_MESSAGE_MAX_LENGTH}
        value={body}
        aria-describedby={picker.hintId}
        {...picker.fieldProps}
        onChange={(event) => {
          setBody(event.target.value);
          operatorTyping(conversation.id);
          picker.changed(event.target.selectionStart);
        }}
        onKeyDown={(event) => {
          if (picker.onKeyDown(event)) return;
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            submit();
          }
        }}
      />
      {picker.list}
      <label className="chat-desk__note-toggle">
        <input type="checkbox" checked={note} onChange={(event) => setNote(event.target.checked)} /> {td('noteMode')}
      </label>
      <button type="submit" className="button">
        {note ? td('noteSend') : t('send')}
      </button>
    </form>
  );
}
