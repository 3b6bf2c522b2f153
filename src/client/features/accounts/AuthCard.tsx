import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '#client/lib/address.tsx';
import { type PageId, pagePath } from '#common/routes.ts';
import './auth-card.css';

/** Where a sign-in page sends those who are on the wrong one: an optional question and a link. */
export interface OtherPage {
  question?: string;
  label: string;
  page: PageId;
}

/**
 * A sign-in page's content: its heading and lead, the form on a card, and the way to another page.
 * A card whose form needs JavaScript says so to a browser without it; `plain`: the form works
 * without (it posts to the server, decision 125).
 */
export function AuthCard({
  title,
  lead,
  children,
  other,
  plain,
}: {
  title: string;
  lead?: string;
  children: ReactNode;
  other: OtherPage;
  plain?: true;
}) {
  const { t } = useTranslation();
  const lang = useLanguage();
  return (
    <>
      <div className="auth__card">
        <h1>{title}</h1>
        {lead && <p className="auth__lead">{lead}</p>}
        {!plain && (
          <noscript>
            <p className="auth__noscript">{t('form.noScript')}</p>
          </noscript>
        )}
        {children}
      </div>
      <p className="auth__after">
        {other.question && `${other.question} `}
        <a href={pagePath(lang, other.page)}>{other.label}</a>
      </p>
    </>
  );
}
