import { useEffect } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { ToastProvider } from '#client/lib/toast/ToastProvider.tsx';
import { PAGE_IDS, PAGES, type PageId, pagePath } from '#common/routes.ts';
import { AfterFirstPaint } from './AfterFirstPaint.tsx';
import { AuthLayout } from './layout/AuthLayout.tsx';
import { LanguageRoot } from './layout/LanguageRoot.tsx';
import { Page } from './layout/Page.tsx';
import { PageErrorBoundary } from './layout/PageError.tsx';
import { SiteLayout } from './layout/SiteLayout.tsx';

const inLayout = PAGE_IDS.filter((page) => PAGES[page].layout);
const outsideLayout = PAGE_IDS.filter((page) => !PAGES[page].layout);

const pageRoute = (page: PageId) =>
  PAGES[page].path ? (
    <Route key={page} path={PAGES[page].path} element={<Page id={page} />} />
  ) : (
    <Route key={page} index element={<Page id={page} />} />
  );

/** The route tree, from the page table. The server answers unknown paths itself; `*` covers in-app links. */
export function App() {
  // Marks the document once the app has taken over the prerendered page, for styles and tests
  // that need to tell the two apart.
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return (
    <ToastProvider>
      <Routes>
        <Route
          path=":lang"
          element={
            <PageErrorBoundary>
              <LanguageRoot />
            </PageErrorBoundary>
          }
        >
          <Route element={<SiteLayout />}>{inLayout.map(pageRoute)}</Route>
          <Route element={<AuthLayout />}>{outsideLayout.map(pageRoute)}</Route>
        </Route>
        <Route path="*" element={<Navigate to={pagePath('en', 'home')} replace />} />
      </Routes>
      <AfterFirstPaint />
    </ToastProvider>
  );
}
