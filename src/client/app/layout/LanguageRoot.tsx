import { use, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { loadPage } from '#client/app/page-modules.ts';
import { useHeadSync } from '#client/features/head/index.ts';
import { cacheLanguage, textsReady } from '#client/features/i18n/index.ts';
import { useLinkNavigation, useNavigationFocus } from '#client/features/navigation/index.ts';
import { navigate, useAddress } from '#client/lib/address.tsx';
import { pictureReady } from '#client/lib/page-pictures.ts';
import { matchPage, PAGES, pageNamespaces, pagePath } from '#common/routes.ts';

const isSitePage = (pathname: string) => matchPage(pathname) !== null;

import { AuthLayout } from './AuthLayout.tsx';
import { Page } from './Page.tsx';
import { SiteLayout } from './SiteLayout.tsx';

/** An address no page answers (a link the app followed itself) leads home; the server does the same. */
function GoHome() {
  useEffect(() => navigate(pagePath('en', 'home'), { replace: true }), []);
  return null;
}

/**
 * The root of every page: makes sure the page's language, texts and picture are loaded before it shows
 * (navigations are transitions, so the previous page stays until then), keeps the document head
 * in step, follows the page's links in the app, moves focus on navigation, caches the language for
 * the root page and puts the page in its layout.
 */
export function LanguageRoot() {
  const address = useAddress();
  const { i18n } = useTranslation();
  const match = matchPage(address.pathname);
  useHeadSync(match);
  useNavigationFocus();
  useLinkNavigation(isSitePage);
  const shownLanguage = match?.language;
  useEffect(() => {
    if (shownLanguage) cacheLanguage(shownLanguage);
  }, [shownLanguage]);
  if (!match) return <GoHome />;

  // While a navigation is pending, the page still on screen re-renders for its own, older address
  // when the language changes; only the address the browser is at may load texts and switch.
  const isLatest = typeof window === 'undefined' || window.location.pathname === address.pathname;
  const ready = isLatest ? textsReady(i18n, match.language, pageNamespaces(match.page), address.key) : true;
  const pictured = isLatest ? pictureReady(match.page, address.key) : true;
  if (ready !== true || pictured !== true) {
    // Fetch the page's code alongside its texts and picture rather than after them.
    void loadPage(match.page).catch(() => {});
    if (ready !== true) use(ready);
    if (pictured !== true) use(pictured);
  }
  const page = <Page key={match.page} id={match.page} />;
  return PAGES[match.page].layout ? <SiteLayout>{page}</SiteLayout> : <AuthLayout>{page}</AuthLayout>;
}
