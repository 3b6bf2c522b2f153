import { Link, useLocation, useParams } from 'react-router';
import { LANGUAGE_NAMES, LANGUAGES, type Language } from '#common/languages.ts';
import { switchLanguagePath } from '#common/routes.ts';
import { rememberLanguage } from './remember-language.ts';

/**
 * The current address in every language, as plain links (they work without JavaScript). Each name
 * is in its own language; the switch keeps focus where it is, as the visitor stays on the page.
 * Following one is a choice, which is remembered for the next visit.
 */
export function LanguageLinks({ className, onChoose }: { className?: string; onChoose?: () => void }) {
  const { lang } = useParams() as { lang: Language };
  const location = useLocation();
  return (
    <ul className={className}>
      {LANGUAGES.map((language) => (
        <li key={language}>
          <Link
            to={switchLanguagePath(location, language)}
            state={{ keepFocus: true }}
            lang={language}
            hrefLang={language}
            aria-current={language === lang ? 'true' : undefined}
            onClick={() => {
              rememberLanguage(language);
              onChoose?.();
            }}
          >
            {LANGUAGE_NAMES[language]}
          </Link>
        </li>
      ))}
    </ul>
  );
}
