import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '#client/lib/address.tsx';
import {
  CompanyContact,
  Details,
  EmailLink,
  OrUnset,
  PostalAddress,
  Unset,
  useCountry,
  useOrUnsetText,
} from '#client/lib/company.tsx';
import { formatDays } from '#client/lib/formats.ts';
import { useSiteConfig } from '#client/lib/site-config.tsx';
import { CODE_LIFETIME_MINUTES } from '#common/account-api.ts';
import { EMAIL_UNDO_DAYS } from '#common/account-settings-api.ts';
import { type RecipientRole, recipients, transfers } from '#common/legal-facts.ts';
import { REAUTHENTICATION_MINUTES } from '#common/reauthentication-api.ts';
import { RETENTION } from '#common/retention.ts';
import { pagePath } from '#common/routes.ts';
import type { Service } from '#common/site-config.ts';
import { storageEntry } from '#common/storage.ts';
import { LegalArticle, LegalSection } from './LegalArticle.tsx';

const RIGHTS = ['access', 'rectification', 'erasure', 'restriction', 'portability', 'objection', 'withdrawal'] as const;

/**
 * The privacy policy: what the code does, said as it is, with the facts the company configures
 * (who they are, who processes data for them, what they keep outside the site) and the periods
 * the clean-up jobs enforce (RETENTION). What depends on the configuration is said only for the
 * configuration in hand: a site without PostHog does not name it.
 */
export default function PrivacyPage() {
  const { t } = useTranslation('privacy');
  const { t: legal } = useTranslation('legal');
  const lang = useLanguage();
  const site = useSiteConfig();
  const { company, services, privacy } = site;
  const orUnset = useOrUnsetText();
  const country = useCountry();
  const period = (days: number | null) => (days === null ? orUnset('', 'period') : formatDays(lang, days));
  const named = (service: Service) => ({ name: orUnset(service.name, 'provider'), country: country(service.country) });

  return (
    <LegalArticle title={t('title')} lead={t('lead')} long>
      <LegalSection id="controller" title={t('sections.controller.title')}>
        <p>{t('sections.controller.text')}</p>
        <CompanyContact company={company} />
        {company.dataProtectionOfficer && (
          <>
            <p>{t('sections.controller.dpo')}</p>
            <Details
              rows={[
                [legal('labels.dataProtectionOfficer'), company.dataProtectionOfficer.name || null],
                [legal('labels.email'), <EmailLink key="email" email={company.dataProtectionOfficer.email} />],
              ]}
            />
          </>
        )}
        {company.euRepresentative && (
          <>
            <p>{t('sections.controller.representative')}</p>
            <PostalAddress
              name={company.euRepresentative.name}
              address={company.euRepresentative.address}
              country={company.euRepresentative.country}
              nameFact="provider"
            />
            {company.euRepresentative.email && (
              <p>
                <EmailLink email={company.euRepresentative.email} />
              </p>
            )}
          </>
        )}
        <p>{t('sections.controller.contact')}</p>
      </LegalSection>

      <LegalSection id="visits" title={t('sections.visits.title')}>
        <p>{t('sections.visits.text')}</p>
        <p>{t('sections.visits.limits', { count: RETENTION.rateLimitHours })}</p>
        <Basis>{t('sections.visits.basis')}</Basis>
      </LegalSection>

      <LegalSection id="language" title={t('sections.language.title')}>
        <p>{t('sections.language.text')}</p>
        <Basis>{t('sections.language.basis')}</Basis>
      </LegalSection>

      <LegalSection id="identifier" title={t('sections.identifier.title')}>
        <p>{t('sections.identifier.text', { count: storageEntry('visitorId').lifetime.days })}</p>
        <p>{t('sections.identifier.use')}</p>
        <p>
          {privacy.fingerprintAfterConsent
            ? t('sections.identifier.afterConsent')
            : t('sections.identifier.withoutConsent')}
        </p>
        <p>{t('sections.identifier.noScript')}</p>
      </LegalSection>

      <LegalSection id="consent" title={t('sections.consent.title')}>
        <p>{t('sections.consent.text', { count: storageEntry('consent').lifetime.days })}</p>
        <Basis>{t('sections.consent.basis')}</Basis>
      </LegalSection>

      <LegalSection id="analytics" title={t('sections.analytics.title')}>
        <p>{t('sections.analytics.text')}</p>
        <p>
          {services.posthog
            ? t('sections.analytics.forwarded', {
                ...named(services.posthog),
                period: period(services.posthog.retentionDays),
              })
            : t('sections.analytics.embedded', { count: RETENTION.analyticsDays })}
        </p>
        <p>{t('sections.analytics.unconsented')}</p>
        <Basis>{t('sections.analytics.basis')}</Basis>
      </LegalSection>

      <LegalSection id="tracing" title={t('sections.tracing.title')}>
        <p>{t('sections.tracing.text')}</p>
        <p>
          {services.traces
            ? t('sections.tracing.collector', {
                ...named(services.traces),
                period: period(services.traces.retentionDays),
              })
            : t('sections.tracing.noCollector')}
        </p>
        <Basis>{t('sections.tracing.basis')}</Basis>
      </LegalSection>

      <LegalSection id="account" title={t('sections.account.title')}>
        <p>{t('sections.account.data')}</p>
        <p>{t('sections.account.password')}</p>
        <p>{t('sections.account.devices')}</p>
        <p>{t('sections.account.phone')}</p>
        <p>{t('sections.account.codes', { count: CODE_LIFETIME_MINUTES })}</p>
        <p>
          {services.mail
            ? t('sections.account.mailQueue', { name: named(services.mail).name, count: RETENTION.mailDeliveryDays })
            : t('sections.account.mailOutbox', { count: RETENTION.mailOutboxDays })}
        </p>
        <p>{t('sections.account.sessions', { count: RETENTION.sessionIdleDays, max: RETENTION.sessionDays })}</p>
        <p>{t('sections.account.secondFactor', { count: RETENTION.trustedBrowserDays })}</p>
        <p>{t('sections.account.passkeys', { count: RETENTION.passkeyChallengeMinutes })}</p>
        <p>{t('sections.account.identities')}</p>
        <p>{t('sections.account.reauthentication', { count: REAUTHENTICATION_MINUTES })}</p>
        <p>{t('sections.account.deletion')}</p>
        <Basis>{t('sections.account.basis')}</Basis>
      </LegalSection>

      <LegalSection id="messages" title={t('sections.messages.title')}>
        <p>{t('sections.messages.text', { period: formatDays(lang, RETENTION.messageDays) })}</p>
        <p>{t('sections.messages.form', { count: RETENTION.spamMessageDays })}</p>
        <Basis>{t('sections.messages.basis')}</Basis>
      </LegalSection>

      <LegalSection id="recipients" title={t('sections.recipients.title')}>
        <p>{t('sections.recipients.text')}</p>
        <ul>
          {recipients(site).map(({ role, service }) => (
            <li key={role}>
              <ServiceName service={service} />: {t(`sections.recipients.roles.${roleText(role, services.database)}`)}
            </li>
          ))}
        </ul>
        <p>{t('sections.recipients.authorities')}</p>
      </LegalSection>

      <LegalSection id="transfers" title={t('sections.transfers.title')}>
        {transfers(site).length === 0 ? (
          <p>{t('sections.transfers.none')}</p>
        ) : (
          <>
            <p>{t('sections.transfers.some')}</p>
            <ul>
              {transfers(site).map(({ role, service }) => (
                <li key={role}>
                  <ServiceName service={service} />:{' '}
                  {service.safeguard ? (
                    t(`sections.transfers.safeguards.${service.safeguard}`)
                  ) : (
                    <Unset fact="safeguard" />
                  )}
                </li>
              ))}
            </ul>
            <p>{t('sections.transfers.copy')}</p>
          </>
        )}
      </LegalSection>

      <RetentionTable />

      <LegalSection id="rights" title={t('sections.rights.title')}>
        <p>{t('sections.rights.text')}</p>
        <ul>
          {RIGHTS.map((right) => (
            <li key={right}>{t(`sections.rights.list.${right}`)}</li>
          ))}
        </ul>
        <p>{t('sections.rights.how', { email: orUnset(company.email, 'email') })}</p>
        <p>{t('sections.rights.yourself', { count: EMAIL_UNDO_DAYS })}</p>
        <p>{t('sections.rights.complaint')}</p>
        <p>
          {company.supervisoryAuthority.url && company.supervisoryAuthority.name ? (
            <a href={company.supervisoryAuthority.url}>{company.supervisoryAuthority.name}</a>
          ) : (
            <OrUnset value={company.supervisoryAuthority.name} fact="authority" />
          )}
        </p>
        <p>{t('sections.rights.automated')}</p>
        <p>{t('sections.rights.obligation')}</p>
      </LegalSection>

      <LegalSection id="changes" title={t('sections.changes.title')}>
        <p>{t('sections.changes.text')}</p>
      </LegalSection>
    </LegalArticle>
  );
}

/** The hosting provider also runs the database unless another company is named for it. */
function roleText(role: RecipientRole, database: Service | null) {
  return role === 'hosting' && !database ? 'hostingWithDatabase' : role;
}

function ServiceName({ service }: { service: Service }) {
  const country = useCountry();
  return (
    <>
      <strong>
        <OrUnset value={service.name} fact="provider" />
      </strong>{' '}
      ({country(service.country)})
    </>
  );
}

function Basis({ children }: { children: ReactNode }) {
  return <p className="legal__basis">{children}</p>;
}

/** Every kind of data the site keeps or has kept for it, and for how long: enforced where the code keeps it. */
function RetentionTable() {
  const { t } = useTranslation('privacy');
  const lang = useLanguage();
  const { services, retention } = useSiteConfig();
  const days = (value: number | null) =>
    value === null ? <Unset fact="period" /> : value === 0 ? t('sections.retention.none') : formatDays(lang, value);

  const rows: [string, ReactNode][] = [
    [
      'account',
      t('sections.retention.rows.account.period', { period: formatDays(lang, RETENTION.inactiveAccountDays) }),
    ],
    ['unconfirmed', t('sections.retention.rows.unconfirmed.period', { count: RETENTION.unverifiedAccountDays })],
    [
      'sessions',
      t('sections.retention.rows.sessions.period', { count: RETENTION.sessionIdleDays, max: RETENTION.sessionDays }),
    ],
    ['codes', t('sections.retention.rows.codes.period', { count: CODE_LIFETIME_MINUTES })],
    ['secondFactor', t('sections.retention.rows.secondFactor.period')],
    ['passkeys', t('sections.retention.rows.passkeys.period')],
    ['trustedBrowsers', t('sections.retention.rows.trustedBrowsers.period', { count: RETENTION.trustedBrowserDays })],
    ['pendingSignIns', t('sections.retention.rows.pendingSignIns.period', { count: RETENTION.pendingSignInMinutes })],
    [
      'passkeyChallenges',
      t('sections.retention.rows.passkeyChallenges.period', { count: RETENTION.passkeyChallengeMinutes }),
    ],
    services.mail
      ? ['mailQueue', t('sections.retention.rows.mailQueue.period', { count: RETENTION.mailDeliveryDays })]
      : ['mailOutbox', t('sections.retention.rows.mailOutbox.period', { count: RETENTION.mailOutboxDays })],
    ['limits', t('sections.retention.rows.limits.period', { count: RETENTION.rateLimitHours })],
    ['messages', t('sections.retention.rows.messages.period', { period: formatDays(lang, RETENTION.messageDays) })],
    ['spam', t('sections.retention.rows.spam.period', { count: RETENTION.spamMessageDays })],
    services.posthog
      ? ['posthog', days(services.posthog.retentionDays)]
      : ['analytics', formatDays(lang, RETENTION.analyticsDays)],
    ['traces', services.traces ? days(services.traces.retentionDays) : t('sections.retention.none')],
    ['logs', days(retention.serverLogDays)],
    ['backups', days(retention.backupDays)],
    [
      'browser',
      <a key="browser" href={pagePath(lang, 'cookies')}>
        {t('sections.retention.rows.browser.period')}
      </a>,
    ],
  ];

  return (
    <LegalSection id="retention" title={t('sections.retention.title')}>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls on narrow screens must be reachable by keyboard */}
      <section className="table-scroll" aria-labelledby="retention-caption" tabIndex={0}>
        <table className="storage-table retention-table">
          <caption id="retention-caption">{t('sections.retention.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('sections.retention.data')}</th>
              <th scope="col">{t('sections.retention.period')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(([key, value]) => (
              <tr key={key}>
                <th scope="row">{t(`sections.retention.rows.${key as 'account'}.label`)}</th>
                <td>{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <p>{t('sections.retention.backups')}</p>
    </LegalSection>
  );
}
