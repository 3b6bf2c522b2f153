import { useSyncExternalStore } from 'react';
import { useAddress, useLanguage } from '#client/lib/address.tsx';
import { LANGUAGE_NAMES, LANGUAGES } from '#common/languages.ts';
import { switchLanguagePath } from '#common/routes.ts';
import { rememberLanguage } from './remember-language.ts';

/**
 * The current address in every language, as plain links (they work without JavaScript). Each name
 * is in its own language; the switch keeps focus where it is, as the visitor stays on the page
 * (use-navigation-focus.ts).
 * Following one is a choice, which is remembered for the next visit.
 */
const noSubscription = () => () => {};

export function LanguageLinks({ className, onChoose }: { className?: string; onChoose?: () => void }) {
  const lang = useLanguage();
  const { pathname, search, hash } = useAddress();
  // The prerendered links cannot know the address's query and fragment, and hydration keeps the
  // server's attributes as they are: the links get them in the render right after hydration, and
  // only on an address that has them.
  const rest = useSyncExternalStore(
    noSubscription,
    () => search + hash,
    () => '',
  );
  return (
    <ul className={className}>
      {LANGUAGES.map((language) => (
        <li key={language}>
          <a
            href={switchLanguagePath({ pathname }, language) + rest}
            lang={language}
            hrefLang={language}
            aria-current={language === lang ? 'true' : undefined}
            onClick={() => {
              rememberLanguage(language);
              onChoose?.();
            }}
          >
            {LANGUAGE_NAMES[language]}
          </a>
        </li>
      ))}
    </ul>
  );
}
