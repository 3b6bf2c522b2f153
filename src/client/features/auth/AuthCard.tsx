import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A sign-in page's content: its heading and lead, the form on a card, and links below it. */
export function AuthCard({
  title,
  lead,
  children,
  after,
}: {
  title: string;
  lead?: string;
  children: ReactNode;
  after?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <>
      <div className="auth__card">
        <h1>{title}</h1>
        {lead && <p className="auth__lead">{lead}</p>}
        <noscript>
          <p className="auth__noscript">{t('form.noScript')}</p>
        </noscript>
        {children}
      </div>
      {after && <div className="auth__after">{after}</div>}
    </>
  );
}
