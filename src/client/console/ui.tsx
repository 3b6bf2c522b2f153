import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** What a page shows while its data is on the way; announced once. */
export function Loading() {
  const { t } = useTranslation('console');
  return (
    <p className="console-loading" role="status">
      {t('loading')}
    </p>
  );
}

/** A link inside the console; the app follows it itself (see `useLinkNavigation` in entry.tsx). */
export function ConsoleLink({
  to,
  children,
  current,
  className,
}: {
  to: string;
  children: ReactNode;
  current?: boolean;
  className?: string;
}) {
  return (
    <a href={to} className={className} aria-current={current ? 'page' : undefined}>
      {children}
    </a>
  );
}
