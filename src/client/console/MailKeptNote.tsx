import { useTranslation } from 'react-i18next';
import type { MeAnswer } from '#common/staff-api.ts';

/**
 * Said beside what would mail someone (an answer, an invitation) when the server sends no mail:
 * without SMTP_URL it keeps mail in the outbox table and its log, and "sent" would be untrue.
 */
export function MailKeptNote({ me }: { me: MeAnswer }) {
  const { t } = useTranslation('console');
  if (me.mail !== 'kept') return null;
  return (
    <p className="console-note mail-kept">
      <strong>{t('mailKept.title')}</strong> {t('mailKept.text')}
    </p>
  );
}
