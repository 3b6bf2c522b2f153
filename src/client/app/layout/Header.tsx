import { type ComponentType, type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitcher } from '#client/features/i18n/index.ts';
import { useAddress, useLanguage } from '#client/lib/address.tsx';
import { matchPage, navPages, pagePath } from '#common/routes.ts';
import { storageEntry } from '#common/storage.ts';
import { BrandLink } from './BrandLink.tsx';

const NAV_PAGES = navPages('header');
const SIGNED_IN_COOKIE = storageEntry('signedIn').name;

export function Header() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const current = matchPage(useAddress().pathname)?.page;
  // The prerendered page cannot know who is signed in: it shows "Sign in". After hydration, when the
  // signed-in cookie says there may be a session, the account corner (its code and a question to
  // the server) replaces it inside the same reserved box.
  const [Account, setAccount] = useState<ComponentType<{ signIn: ReactNode }> | null>(null);
  useEffect(() => {
    if (!document.cookie.split('; ').includes(`${SIGNED_IN_COOKIE}=1`)) return;
    // Imported on demand, so that no page loads the accounts feature before it is needed.
    import('#client/features/accounts/index.ts').then(
      (accounts) => setAccount(() => accounts.HeaderAccount),
      () => {},
    );
  }, []);
  const signIn = (
    <a className="header-account__sign-in" href={pagePath(lang, 'login')}>
      {t('account.signIn')}
    </a>
  );
  return (
    <header className="site-header">
      <div className="container site-header__inner">
        <BrandLink />
        <nav className="main-nav" aria-label={t('nav.label')}>
          <ul>
            {NAV_PAGES.map((page) => (
              <li key={page}>
                <a href={pagePath(lang, page)} aria-current={page === current ? 'page' : undefined}>
                  {t(`nav.${page}`)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="header-account">{Account ? <Account signIn={signIn} /> : signIn}</div>
        <LanguageSwitcher />
      </div>
    </header>
  );
}
