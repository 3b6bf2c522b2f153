import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { consoleCall } from '#client/console/api.ts';
import { useFormat, useLanguageName } from '#client/console/format.ts';
import { MailKeptNote } from '#client/console/MailKeptNote.tsx';
import { ConsoleLink, Loading } from '#client/console/ui.tsx';
import { useTitle } from '#client/console/use-title.ts';
import { SubmitButton, TextAreaField, useForm } from '#client/features/forms/index.ts';
import { navigate } from '#client/lib/address.tsx';
import { useErrorToast } from '#client/lib/toast/use-error-toast.ts';
import { useToast } from '#client/lib/toast/use-toast.ts';
import { withId } from '#common/api-paths.ts';
import { REPLY_MAX_LENGTH } from '#common/contact-api.ts';
import { ReplyBodySchema } from '#common/contact-schemas.ts';
import { INBOX_API, type MessageDetail, type SettableStatus } from '#common/inbox-api.ts';
import { consolePath } from '#common/routes.ts';
import type { MeAnswer } from '#common/staff-api.ts';
import { StatusBadge, useSubject } from './InboxPage.tsx';

type Detail = MessageDetail;

/** How often an answer whose mail is queued or retrying is asked about again. */
const PENDING_POLL_MS = 3_000;

function ReplyForm({ detail, me, onSent }: { detail: Detail; me: MeAnswer; onSent: () => void }) {
  const { t } = useTranslation('console');
  const toast = useToast();
  const { id, name, email } = detail.message;
  const form = useForm('reply', { body: '' }, { body: ReplyBodySchema });
  const submit = form.submit(async (values) => {
    const result = await consoleCall(withId(INBOX_API.reply, id), values);
    if (!result.ok) return result;
    toast.show({ type: 'success', message: me.mail === 'kept' ? t('message.reply.kept') : t('message.reply.queued') });
    onSent();
  });
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <TextAreaField
        field={form.field('body')}
        label={t('message.reply.label', { name })}
        hint={t('message.reply.hint', { email })}
        rows={8}
        maxLength={REPLY_MAX_LENGTH}
      />
      <SubmitButton busy={form.busy}>{t('message.reply.send')}</SubmitButton>
    </form>
  );
}

/** The buttons that change the status, and delete with a second, explicit step. */
function Actions({ detail, reload }: { detail: Detail; reload: () => Promise<void> }) {
  const { t } = useTranslation('console');
  const toast = useToast();
  const errorToast = useErrorToast();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const { id, status } = detail.message;

  useEffect(() => {
    if (confirming) confirmButton.current?.focus();
  }, [confirming]);

  const setStatus = async (next: SettableStatus, done: string) => {
    if (busy) return;
    setBusy(true);
    const result = await consoleCall(withId(INBOX_API.status, id), { status: next });
    setBusy(false);
    if (!result.ok) return void errorToast(result.code);
    toast.show({ type: 'success', message: done });
    await reload();
  };
  const remove = async () => {
    setBusy(true);
    const result = await consoleCall(withId(INBOX_API.remove, id), {});
    setBusy(false);
    if (!result.ok) return void errorToast(result.code);
    toast.show({ type: 'success', message: t('message.deleted') });
    navigate(consolePath('inbox'));
  };

  const buttons: [SettableStatus, string, string][] = [];
  if (status === 'spam') buttons.push(['read', t('message.notSpam'), t('message.done.notSpam')]);
  else {
    if (status === 'new') buttons.push(['read', t('message.markRead'), t('message.done.read')]);
    else if (status !== 'archived') buttons.push(['new', t('message.markUnread'), t('message.done.unread')]);
    if (status === 'archived') buttons.push(['read', t('message.restore'), t('message.done.restored')]);
    else buttons.push(['archived', t('message.archive'), t('message.done.archived')]);
    buttons.push(['spam', t('message.markSpam'), t('message.done.spam')]);
  }
  return (
    <section className="message__actions" aria-labelledby="actions-title">
      <h2 id="actions-title" className="visually-hidden">
        {t('message.actions')}
      </h2>
      {confirming ? (
        <fieldset className="confirm">
          <legend>{t('message.confirmDelete')}</legend>
          <button ref={confirmButton} type="button" className="button button--danger button--small" onClick={remove}>
            {t('message.confirm')}
          </button>
          <button type="button" className="button button--secondary button--small" onClick={() => setConfirming(false)}>
            {t('message.cancel')}
          </button>
        </fieldset>
      ) : (
        <div className="toolbar">
          {buttons.map(([next, label, done]) => (
            <button
              key={label}
              type="button"
              className="button button--secondary button--small"
              aria-disabled={busy || undefined}
              onClick={() => void setStatus(next, done)}
            >
              {label}
            </button>
          ))}
          <button type="button" className="button button--danger button--small" onClick={() => setConfirming(true)}>
            {t('message.delete')}
          </button>
        </div>
      )}
    </section>
  );
}

/**
 * One message: who wrote it, from which page and in which language, the text exactly as written
 * (React writes it as text, so markup in it is shown, never run), the answers sent and what the
 * staff did with it. Opening a new message marks it read.
 */
export default function MessagePage({ id, me }: { id: string; me: MeAnswer }) {
  const languageName = useLanguageName();
  const { t } = useTranslation('console');
  const format = useFormat();
  const subject = useSubject();
  const errorToast = useErrorToast();
  const [detail, setDetail] = useState<Detail | null>(null);
  const [missing, setMissing] = useState(false);
  const [replyKey, setReplyKey] = useState(0);
  useTitle(detail ? subject(detail.message.subject) : t('message.title'));

  const load = useCallback(async () => {
    const result = await consoleCall<Detail>(withId(INBOX_API.message, id));
    if (result.ok) setDetail(result.data);
    else if (result.code === 'NOT_FOUND') setMissing(true);
    else void errorToast(result.code);
    return result.ok ? result.data : null;
  }, [id, errorToast]);

  useEffect(() => {
    setDetail(null);
    setMissing(false);
    void load().then(async (loaded) => {
      if (loaded?.message.status !== 'new') return;
      const marked = await consoleCall(withId(INBOX_API.status, id), { status: 'read' });
      if (marked.ok) await load();
    });
  }, [id]);

  // Answers whose mail is under way are asked about again until the jobs report them done.
  useEffect(() => {
    if (!detail?.replies.some((reply) => reply.delivery === 'queued' || reply.delivery === 'retrying')) return;
    const timer = setTimeout(() => void load(), PENDING_POLL_MS);
    return () => clearTimeout(timer);
  }, [detail, load]);

  const back = <ConsoleLink to={consolePath('inbox')}>{t('message.back')}</ConsoleLink>;
  if (missing) {
    return (
      <>
        <p className="console-back">{back}</p>
        <h1>{t('message.missing')}</h1>
      </>
    );
  }
  if (!detail) return <Loading />;
  const { message, replies, events } = detail;
  return (
    <article className="message">
      <p className="console-back">{back}</p>
      <h1>{subject(message.subject)}</h1>
      <dl className="message__facts">
        <dt>{t('message.from')}</dt>
        <dd>
          {message.name} &lt;<a href={`mailto:${message.email}`}>{message.email}</a>&gt;
        </dd>
        <dt>{t('message.status')}</dt>
        <dd>
          <StatusBadge status={message.status} />
          {message.spamReason && (
            <span className="message__reason">
              {' '}
              {t('message.spamReason', { reason: t(`spamReasons.${message.spamReason}` as 'spamReasons.honeypot') })}
            </span>
          )}
        </dd>
        <dt>{t('message.language')}</dt>
        <dd>{languageName(message.language)}</dd>
        <dt>{t('message.page')}</dt>
        <dd>{message.page ? <a href={message.page}>{message.page}</a> : t('message.noPage')}</dd>
        <dt>{t('message.received')}</dt>
        <dd>
          <time dateTime={message.createdAt}>{format.dateTime(message.createdAt)}</time>
        </dd>
      </dl>
      {message.fromAccount && <p className="message__note">{t('message.account')}</p>}
      <div className="message__body" dir="auto" lang={message.language}>
        {message.body}
      </div>
      <Actions detail={detail} reload={async () => void (await load())} />

      <section aria-labelledby="thread-title">
        <h2 id="thread-title">{t('message.thread')}</h2>
        {replies.length === 0 ? (
          <p>{t('message.noReplies')}</p>
        ) : (
          <ol className="thread">
            {replies.map((reply) => (
              <li key={reply.id} className="thread__reply">
                <p className="thread__meta">
                  {t('message.by', {
                    name: reply.author ?? t('message.formerStaff'),
                    date: format.dateTime(reply.createdAt),
                  })}
                  {' · '}
                  <span className={`delivery delivery--${reply.delivery}`}>
                    {reply.delivery === 'sent' && reply.sentAt
                      ? t('message.delivery.sent', { date: format.dateTime(reply.sentAt) })
                      : t(`message.delivery.${reply.delivery}`)}
                  </span>
                </p>
                <div className="message__body" dir="auto">
                  {reply.body}
                </div>
              </li>
            ))}
          </ol>
        )}
        {message.status === 'spam' ? (
          <p className="message__note">{t('message.reply.spamNote')}</p>
        ) : (
          <section aria-labelledby="reply-title" className="message__reply">
            <h3 id="reply-title">{t('message.reply.title')}</h3>
            <MailKeptNote me={me} />
            <ReplyForm
              key={replyKey}
              detail={detail}
              me={me}
              onSent={() => {
                setReplyKey((n) => n + 1);
                void load();
              }}
            />
          </section>
        )}
      </section>

      <section aria-labelledby="history-title">
        <h2 id="history-title">{t('message.history')}</h2>
        {events.length === 0 ? (
          <p>{t('message.noHistory')}</p>
        ) : (
          <ul className="history">
            {events.map((event, index) => (
              // Events have no id of their own; their order never changes.
              <li key={index}>
                {t('message.event', {
                  action: t(`events.${event.action}`),
                  name: event.actor ?? t('message.formerStaff'),
                  date: format.dateTime(event.createdAt),
                })}
              </li>
            ))}
          </ul>
        )}
      </section>
    </article>
  );
}
