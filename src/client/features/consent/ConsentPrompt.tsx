import { type RefObject, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSiteConfig } from '#client/lib/site-config.tsx';
import { DEFAULT_LANGUAGE, isLanguage } from '#common/languages.ts';
import { privacySettingsPath } from '#common/routes.ts';
import { chooseConsent } from './consent.ts';
import './consent.css';

/**
 * While the prompt covers the bottom of the window, the browser scrolls a focused element above it
 * rather than behind it (WCAG 2.4.11). Only scrolling changes: nothing on the page moves.
 */
function useKeepFocusAbove(element: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const prompt = element.current;
    if (!prompt) return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() => {
      root.style.scrollPaddingBottom = `${prompt.offsetHeight}px`;
    });
    observer.observe(prompt);
    return () => {
      observer.disconnect();
      root.style.scrollPaddingBottom = '';
    };
  }, [element]);
}

/**
 * The first-visit question about analytics: a labelled region fixed to the bottom of the window,
 * over the page rather than in its flow, so nothing shifts. It does not trap focus: the page stays
 * usable, and with no answer nothing that needs consent happens.
 */
export function ConsentPrompt() {
  const { t, i18n } = useTranslation();
  const language = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
  const privacyOption = useSiteConfig().privacy.fingerprintAfterConsent;
  const prompt = useRef<HTMLElement>(null);
  useKeepFocusAbove(prompt);

  const choose = (choice: 'granted' | 'denied') => {
    chooseConsent(choice, { privacyOption });
    // The prompt goes away with the button that had focus; keyboard users continue from the page.
    document.getElementById('main')?.focus({ preventScroll: true });
  };

  return (
    <section ref={prompt} className="consent-prompt" aria-labelledby="consent-prompt-title">
      <div className="container consent-prompt__inner">
        <div className="consent-prompt__text">
          <h2 id="consent-prompt-title">{t('consent.title')}</h2>
          {/* Short blocks: together they must never outsize a page's own content and become its LCP. */}
          {/* With the privacy option, the answer also decides whether the visitor identifier is computed. */}
          <p>{privacyOption ? t('consent.questionWithIdentifier') : t('consent.question')}</p>
          <p>{t('consent.detail')}</p>
          <p>
            <a href={privacySettingsPath(language)}>{t('consent.policyLink')}</a>
          </p>
        </div>
        <div className="consent-actions">
          <button type="button" className="button button--secondary" onClick={() => choose('denied')}>
            {t('consent.decline')}
          </button>
          <button type="button" className="button" onClick={() => choose('granted')}>
            {t('consent.accept')}
          </button>
        </div>
      </div>
    </section>
  );
}
