import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '#client/lib/address.tsx';
import { LANGUAGE_NAMES } from '#common/languages.ts';
import { LanguageLinks } from './LanguageLinks.tsx';

/**
 * A disclosure listing the languages as plain links: it works without JavaScript, and with it the
 * app switches language in place. Escape and a click outside close it.
 */
export function LanguageSwitcher() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const details = useRef<HTMLDetailsElement>(null);

  useEffect(() => {
    const element = details.current;
    if (!element) return;
    const close = (focusSummary: boolean) => {
      if (!element.open) return;
      element.open = false;
      if (focusSummary) element.querySelector('summary')?.focus();
    };
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && close(true);
    const onPointer = (event: PointerEvent) => !element.contains(event.target as Node) && close(false);
    element.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      element.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, []);

  return (
    <details className="language-switcher" ref={details}>
      <summary>
        <span className="visually-hidden">{t('language.label')} </span>
        <span aria-hidden="true" className="language-switcher__code">
          {lang.toUpperCase()}
        </span>
        <span className="language-switcher__name">{LANGUAGE_NAMES[lang]}</span>
      </summary>
      <LanguageLinks
        className="language-switcher__list"
        onChoose={() => {
          if (details.current) details.current.open = false;
        }}
      />
    </details>
  );
}
