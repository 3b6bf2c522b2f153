import { type ReactNode, Suspense } from 'react';
import { LanguageSwitcher } from '#client/features/i18n/index.ts';
import { BrandLink } from './BrandLink.tsx';

/**
 * The sign-in pages stand outside the shared layout (no header, footer or chat, SPEC §2): a brand
 * line leading home and the language switcher, then the page.
 */
export function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <div className="auth">
      <div className="auth__top">
        <BrandLink />
        <LanguageSwitcher />
      </div>
      <main id="main" tabIndex={-1} className="auth__main">
        <Suspense fallback={<div className="page-placeholder" />}>{children}</Suspense>
      </main>
    </div>
  );
}
