import { ToastProvider } from '#client/lib/toast/ToastProvider.tsx';
import { AfterFirstPaint } from './AfterFirstPaint.tsx';
import { LanguageRoot } from './layout/LanguageRoot.tsx';
import { PageErrorBoundary } from './layout/PageError.tsx';

/** The site: the page at the current address, with what starts after the first paint. */
export function App() {
  return (
    <ToastProvider>
      <PageErrorBoundary>
        <LanguageRoot />
      </PageErrorBoundary>
      <AfterFirstPaint />
    </ToastProvider>
  );
}
