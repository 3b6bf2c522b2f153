import { useTranslation } from 'react-i18next';
import { ConsentSettings, needsConsent } from '#client/features/consent/index.ts';
import { useLanguage } from '#client/lib/address.tsx';
import { formatDays } from '#client/lib/formats.ts';
import { useSiteConfig } from '#client/lib/site-config.tsx';
import { RETENTION } from '#common/retention.ts';
import { type Lifetime, STORAGE_ENTRIES, type StorageId } from '#common/storage.ts';
import { LegalArticle, LegalSection } from './LegalArticle.tsx';

/** A lifetime in the reader's words: whole years as years, otherwise days, spelled by Intl. */
function useLifetimeLabel(): (lifetime: Lifetime) => string {
  const { t } = useTranslation('cookie');
  const lang = useLanguage();
  return (lifetime) => {
    if (lifetime === 'untilCleared') return t('lifetimes.untilCleared');
    if (lifetime === 'tab') return t('lifetimes.tab');
    return formatDays(lang, lifetime.days);
  };
}

/** What a purpose text counts: the session's idle and absolute lifetimes. */
const PURPOSE_COUNTS: Partial<Record<StorageId, { count: number; max: number }>> = {
  session: { count: RETENTION.sessionIdleDays, max: RETENTION.sessionDays },
};

export default function CookiePage() {
  const { t } = useTranslation('cookie');
  const lifetimeLabel = useLifetimeLabel();
  const privacyOption = useSiteConfig().privacy.fingerprintAfterConsent;
  return (
    <LegalArticle title={t('title')} lead={t('lead')}>
      <ConsentSettings privacyOption={privacyOption} />
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls on narrow screens must be reachable by keyboard */}
      <section className="table-scroll" aria-labelledby="storage-caption" tabIndex={0}>
        <table className="storage-table">
          <caption id="storage-caption">{t('table.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('table.name')}</th>
              <th scope="col">{t('table.kind')}</th>
              <th scope="col">{t('table.purpose')}</th>
              <th scope="col">{t('table.lifetime')}</th>
              <th scope="col">{t('table.consent')}</th>
            </tr>
          </thead>
          <tbody>
            {STORAGE_ENTRIES.map((entry) => (
              <tr key={entry.id}>
                <th scope="row">
                  <code>{entry.name}</code>
                </th>
                <td>{t(`kinds.${entry.kind}`)}</td>
                <td>{t(`items.${entry.id as 'consent'}.purpose`, PURPOSE_COUNTS[entry.id] ?? {})}</td>
                <td>{lifetimeLabel(entry.lifetime)}</td>
                <td>{needsConsent(entry, privacyOption) ? t('consent.needed') : t('consent.notNeeded')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <LegalSection id="passkeys" title={t('passkeys.title')}>
        <p>{t('passkeys.text')}</p>
      </LegalSection>
      <LegalSection id="control" title={t('control.title')}>
        <p>{t('control.text')}</p>
      </LegalSection>
    </LegalArticle>
  );
}
