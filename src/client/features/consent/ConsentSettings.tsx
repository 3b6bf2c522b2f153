import { useTranslation } from 'react-i18next';
import { PRIVACY_SETTINGS_ID } from '#common/routes.ts';
import { chooseConsent, useConsent } from './consent.ts';
import './consent.css';

const CHOICES = [
  { choice: 'granted', label: 'choice.allow', style: 'button' },
  { choice: 'denied', label: 'choice.refuse', style: 'button button--secondary' },
] as const;

/**
 * The visitor's choice about analytics, shown and changed on the cookie policy (the footer links
 * here). The prerendered page cannot know the choice: until hydration the status line is empty and
 * the buttons are disabled, in the same place, so nothing moves when they come alive.
 */
export function ConsentSettings({ privacyOption }: { privacyOption: boolean }) {
  const { t } = useTranslation('cookie');
  const consent = useConsent();
  return (
    <section className="consent-settings" id={PRIVACY_SETTINGS_ID} aria-labelledby="consent-settings-title">
      <h2 id="consent-settings-title">{t('choice.title')}</h2>
      <p>{t('choice.accept')}</p>
      <p>{t('choice.decline')}</p>
      <p>{privacyOption ? t('choice.identifierAfterConsent') : t('choice.identifierAlways')}</p>
      <p className="consent-settings__status" aria-live="polite">
        {consent ? t(`choice.status.${consent}`) : ''}
      </p>
      <div className="consent-actions">
        {CHOICES.map(({ choice, label, style }) => (
          <button
            key={choice}
            type="button"
            className={style}
            aria-pressed={consent === choice}
            disabled={!consent}
            onClick={() => chooseConsent(choice, { privacyOption })}
          >
            {t(label)}
          </button>
        ))}
      </div>
    </section>
  );
}
