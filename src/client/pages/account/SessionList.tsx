import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '#client/lib/address.tsx';
import { callApi } from '#client/lib/api-client.ts';
import { useToast } from '#client/lib/toast/use-toast.ts';
import {
  ACCOUNT_SETTINGS_API,
  type EndedSessionsAnswer,
  type SessionListAnswer,
  type SessionListEntry,
} from '#common/account-settings-api.ts';
import type { ErrorCode } from '#common/error-codes.ts';

/** The factors a session may record, each with a name in every language; any other is shown as recorded. */
const FACTORS = ['password', 'email-code', 'totp', 'recovery-code', 'trusted-browser', 'passkey'] as const;
const isKnownFactor = (factor: string): factor is (typeof FACTORS)[number] =>
  (FACTORS as readonly string[]).includes(factor);

/**
 * Where the account is signed in: each session with its browser and system, when it signed in and
 * with what, when it was last used, and a button that signs it out; and one for every other session.
 * `version` changes when something else ended sessions (a new password), to read the list again.
 */
export function SessionList({ failed, version }: { failed: (code: ErrorCode) => void; version: number }) {
  const { t } = useTranslation('settings');
  const lang = useLanguage();
  const toast = useToast();
  const [sessions, setSessions] = useState<SessionListEntry[] | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  const load = () =>
    callApi<SessionListAnswer>(ACCOUNT_SETTINGS_API.sessions).then((result) => {
      if (result.ok) setSessions(result.data.sessions);
      else failed(result.code);
    });
  useEffect(() => {
    void load();
  }, [version]);

  const when = (iso: string) =>
    new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
  const factorsOf = (session: SessionListEntry) =>
    new Intl.ListFormat(lang, { type: 'conjunction' }).format(
      session.factors.map((factor) => (isKnownFactor(factor) ? t(`sessions.factors.${factor}`) : factor)),
    );
  // The button pressed disappears with its row: the focus goes to the list's heading, not the page's top.
  const afterEnding = async (message: string) => {
    toast.show({ type: 'success', message });
    await load();
    heading.current?.focus();
  };

  const end = async (id: string) => {
    const result = await callApi(ACCOUNT_SETTINGS_API.endSession, { id });
    if (result.ok || result.code === 'NOT_FOUND') await afterEnding(t('sessions.ended'));
    else failed(result.code);
  };
  const endOthers = async () => {
    const result = await callApi<EndedSessionsAnswer>(ACCOUNT_SETTINGS_API.endOtherSessions, {});
    if (result.ok) await afterEnding(t('sessions.endedOthers', { count: result.data.ended }));
    else failed(result.code);
  };

  return (
    <>
      <h3 id="account-session-list" ref={heading} tabIndex={-1}>
        {t('sessions.listTitle')}
      </h3>
      {!sessions ? (
        <p role="status">{t('sessions.loading')}</p>
      ) : (
        <>
          <ul className="account__list" aria-labelledby="account-session-list">
            {sessions.map((session) => {
              const name = session.label || t('sessions.unknown');
              return (
                <li key={session.id}>
                  <span>
                    <strong>{session.current ? `${name} (${t('sessions.current')})` : name}</strong>
                    <br />
                    {t('sessions.signedIn', { date: when(session.createdAt), factors: factorsOf(session) })}
                    <br />
                    {t('sessions.lastActive', { date: when(session.lastSeenAt) })}
                  </span>
                  {!session.current && (
                    <button
                      type="button"
                      className="button button--secondary button--small"
                      aria-label={t('sessions.endLabel', { name, date: when(session.createdAt) })}
                      onClick={() => end(session.id)}
                    >
                      {t('sessions.end')}
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
          {sessions.some((session) => !session.current) ? (
            <p className="actions">
              <button type="button" className="button button--secondary" onClick={endOthers}>
                {t('sessions.endOthers')}
              </button>
            </p>
          ) : (
            <p>{t('sessions.noOthers')}</p>
          )}
        </>
      )}
    </>
  );
}
