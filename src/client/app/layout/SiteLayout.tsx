import { type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { ChatSlot } from './ChatSlot.tsx';
import { Footer } from './Footer.tsx';
import { Header } from './Header.tsx';

/** Header, the page, footer, the chat. The page area keeps its height while a page is still loading. */
export function SiteLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <>
      <a className="skip-link" href="#main">
        {t('skipToContent')}
      </a>
      <Header />
      <main id="main" tabIndex={-1}>
        <Suspense fallback={<div className="page-placeholder" />}>{children}</Suspense>
      </main>
      <Footer />
      <ChatSlot />
    </>
  );
}
