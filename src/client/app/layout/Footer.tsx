import { useTranslation } from 'react-i18next';
import { LanguageLinks } from '#client/features/i18n/index.ts';
import { useLanguage } from '#client/lib/address.tsx';
import { useSiteConfig } from '#client/lib/site-config.tsx';
import { pagePath, privacySettingsPath } from '#common/routes.ts';

const LEGAL_PAGES = [
  ['privacy', 'footer.privacy'],
  ['terms', 'footer.terms'],
  ['cookies', 'footer.cookies'],
  ['imprint', 'footer.imprint'],
] as const;

export function Footer() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { brand, operator } = useSiteConfig();
  return (
    <footer className="site-footer">
      <div className="container site-footer__grid">
        {/* Who runs the site, as configured; only the brand until the operator has filled in the rest. */}
        <p className="site-footer__operator">
          <strong>{brand.siteName}</strong>
          {[operator.legalName, ...operator.address].filter(Boolean).map((line) => (
            <span key={line}>
              <br />
              {line}
            </span>
          ))}
        </p>
        <nav aria-labelledby="footer-legal">
          <h2 id="footer-legal">{t('footer.legal')}</h2>
          <ul>
            {LEGAL_PAGES.map(([page, label]) => (
              <li key={page}>
                <a href={pagePath(lang, page)}>{t(label)}</a>
              </li>
            ))}
            <li>
              <a href={privacySettingsPath(lang)}>{t('footer.privacySettings')}</a>
            </li>
          </ul>
        </nav>
        <nav aria-labelledby="footer-languages">
          <h2 id="footer-languages">{t('footer.languages')}</h2>
          <LanguageLinks />
        </nav>
      </div>
      <div className="container site-footer__bottom">
        {/* The year is the reader's; the prerendered one may be older, so React may replace it. */}
        <p suppressHydrationWarning>{t('footer.copyright', { year: new Date().getFullYear() })}</p>
      </div>
    </footer>
  );
}
