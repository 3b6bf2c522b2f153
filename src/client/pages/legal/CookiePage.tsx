import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ConsentSettings } from '#client/features/consent/ConsentSettings.tsx';
import { useSiteConfig } from '#client/lib/site-config.tsx';
import type { Language } from '#common/languages.ts';
import { type Lifetime, STORAGE_ENTRIES, type StorageEntry } from '#common/storage.ts';
import { LegalArticle } from './LegalArticle.tsx';

/** A lifetime in the reader's words: whole years as years, otherwise days, spelled by Intl. */
function useLifetimeLabel(): (lifetime: Lifetime) => string {
  const { t } = useTranslation('cookie');
  const { lang } = useParams() as { lang: Language };
  return (lifetime) => {
    if (lifetime === 'untilCleared') return t('lifetimes.untilCleared');
    if (lifetime === 'tab') return t('lifetimes.tab');
    const years = lifetime.days / 365;
    const [value, unit] = Number.isInteger(years) ? [years, 'year'] : [lifetime.days, 'day'];
    return new Intl.NumberFormat(lang, { style: 'unit', unit, unitDisplay: 'long' }).format(value);
  };
}

/** Whether an entry waits for the visitor's consent on a site with the privacy option on or off. */
function needsConsent(entry: StorageEntry, privacyOption: boolean): boolean {
  return entry.needsConsent === 'withPrivacyOption' ? privacyOption : entry.needsConsent;
}

export default function CookiePage() {
  const { t } = useTranslation('cookie');
  const lifetimeLabel = useLifetimeLabel();
  const privacyOption = useSiteConfig().privacy.fingerprintAfterConsent;
  return (
    <LegalArticle
      title={t('title')}
      updated={t('updated')}
      lead={t('lead')}
      sections={[{ id: 'control', title: t('control.title'), text: t('control.text') }]}
    >
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
                <td>{t(`items.${entry.id}.purpose`)}</td>
                <td>{lifetimeLabel(entry.lifetime)}</td>
                <td>{needsConsent(entry, privacyOption) ? t('consent.needed') : t('consent.notNeeded')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </LegalArticle>
  );
}
