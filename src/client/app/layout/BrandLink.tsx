import { useTranslation } from 'react-i18next';
import { useLanguage } from '#client/lib/address.tsx';
import { useSiteConfig } from '#client/lib/site-config.tsx';
import { pagePath } from '#common/routes.ts';

/** The brand's mark and name, leading to the home page in the page's language. */
export function BrandLink() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { brand } = useSiteConfig();
  return (
    <a className="brand" href={pagePath(lang, 'home')} aria-label={t('homeLink')}>
      <span className="brand__mark" aria-hidden="true" />
      <span className="brand__name">{brand.siteName}</span>
    </a>
  );
}
