import { use } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import { loadPage } from '#client/app/page-modules.ts';
import { useHeadSync } from '#client/features/head/use-head-sync.ts';
import { textsReady } from '#client/features/i18n/texts-ready.ts';
import { useLinkNavigation } from '#client/features/navigation/use-link-navigation.ts';
import { useNavigationFocus } from '#client/features/navigation/use-navigation-focus.ts';
import { matchPage, pageNamespaces, pagePath } from '#common/routes.ts';

/**
 * The root of every page: makes sure the page's language and texts are loaded before it shows
 * (navigations are transitions, so the previous page stays until then), keeps the document head
 * in step, follows the page's links in the app and moves focus on navigation.
 */
export function LanguageRoot() {
  const location = useLocation();
  const { i18n } = useTranslation();
  const match = matchPage(location.pathname);
  useHeadSync(match);
  useNavigationFocus();
  useLinkNavigation();
  if (!match) return <Navigate to={pagePath('en', 'home')} replace />;

  // While a navigation is pending, the page still on screen re-renders for its own, older address
  // when the language changes; only the address the browser is at may load texts and switch.
  const isLatest = typeof window === 'undefined' || window.location.pathname === location.pathname;
  const ready = isLatest ? textsReady(i18n, match.language, pageNamespaces(match.page), location.key) : true;
  if (ready !== true) {
    // Fetch the page's code alongside its texts rather than after them.
    void loadPage(match.page).catch(() => {});
    use(ready);
  }
  return <Outlet />;
}
