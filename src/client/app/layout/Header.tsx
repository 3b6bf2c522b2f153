import { useTranslation } from 'react-i18next';
import { Link, NavLink, useParams } from 'react-router';
import type { Language } from '../../../common/languages.ts';
import { pagePath } from '../../../common/routes.ts';
import { LanguageSwitcher } from '../../features/i18n/LanguageSwitcher.tsx';
import { useSiteConfig } from '../../features/site/site-config.tsx';

const NAV_PAGES = ['home', 'about', 'contact'] as const;

export function Header() {
  const { t } = useTranslation();
  const { lang } = useParams() as { lang: Language };
  const { brand } = useSiteConfig();
  return (
    <header className="site-header">
      <div className="container site-header__inner">
        <Link className="brand" to={pagePath(lang, 'home')} aria-label={t('homeLink')}>
          <span className="brand__mark" aria-hidden="true" />
          {brand.siteName}
        </Link>
        <nav className="main-nav" aria-label={t('nav.label')}>
          <ul>
            {NAV_PAGES.map((page) => (
              <li key={page}>
                <NavLink to={pagePath(lang, page)} end>
                  {t(`nav.${page}`)}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <LanguageSwitcher />
      </div>
    </header>
  );
}
