import { useTranslation } from 'react-i18next';
import { useLanguage } from '#client/lib/address.tsx';
import { useSiteConfig } from '#client/lib/site-config.tsx';
import { pagePath } from '#common/routes.ts';

/** The brand's logo (or the design's mark) and name, leading to the home page in the page's language. */
export function BrandLink() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { brand, appearance } = useSiteConfig();
  const logo = appearance?.logo;
  return (
    <a className="brand" href={pagePath(lang, 'home')} aria-label={t('homeLink')}>
      {logo ? (
        <img
          className="brand__logo"
          src={logo.path}
          width={logo.width}
          height={logo.height}
          alt={logo.alt[lang] ?? logo.alt.en ?? ''}
        />
      ) : (
        <span className="brand__mark" aria-hidden="true" />
      )}
      <span className="brand__name">{brand.siteName}</span>
    </a>
  );
}
