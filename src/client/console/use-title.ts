import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSiteConfig } from '#client/lib/site-config.tsx';

/** The window's title: the page, the console, the brand. */
export function useTitle(page: string) {
  const { t } = useTranslation('console');
  const { siteName } = useSiteConfig().brand;
  const console = t('title');
  useEffect(() => {
    document.title = `${page} – ${console} – ${siteName}`;
  }, [page, console, siteName]);
}
