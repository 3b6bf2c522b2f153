import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Loading } from '#client/console/ui.tsx';
import { useTitle } from '#client/console/use-title.ts';
import type { ErrorCode } from '#common/error-codes.ts';
import type { BrandAnswer } from '#common/site-brand.ts';
import { readBrand } from './brand/brand-api.ts';
import { ColourSection } from './brand/ColourSection.tsx';
import { LegalSection } from './brand/LegalSection.tsx';
import { LogoSection } from './brand/LogoSection.tsx';
import { NameSection } from './brand/NameSection.tsx';
import './brand/brand.css';

/**
 * The brand, for admins (console/brand): the site's name, its colour, its logo and the legal facts,
 * over what config.json starts with; each section saves alone, and the answer comes once this
 * instance serves the site rendered again, which the live region then says.
 */
export default function BrandPage() {
  const { t } = useTranslation('console');
  const { t: te } = useTranslation('errors');
  useTitle(t('brand.title'));
  const [answer, setAnswer] = useState<BrandAnswer | null>(null);
  const [failed, setFailed] = useState<ErrorCode | null>(null);
  const [status, setStatus] = useState('');
  useEffect(() => {
    void readBrand().then((result) => (result.ok ? setAnswer(result.data) : setFailed(result.code)));
  }, []);
  const saved = useCallback(
    (next: BrandAnswer, section: string) => {
      setAnswer(next);
      setStatus(t('brand.saved', { section }));
    },
    [t],
  );

  const pinned = answer?.pinned ?? [];
  return (
    <>
      <h1>{t('brand.title')}</h1>
      <p className="brand-page__intro">{t('brand.intro')}</p>
      {/* Present before any save, so that what it says is announced (politely) when it changes. */}
      <p className="brand-page__status" role="status" aria-live="polite">
        {status}
      </p>
      {failed && <p className="field__error">{te(failed)}</p>}
      {!answer && !failed && <Loading />}
      {answer && (
        <>
          {pinned.length > 0 && (
            <div className="brand-page__pinned">
              <p>{t('brand.pinnedNote')}</p>
              <ul>
                {pinned.map((part) => (
                  <li key={part}>
                    {t(`brand.parts.${part}`)} (<code>{part}</code>)
                  </li>
                ))}
              </ul>
            </div>
          )}
          <NameSection answer={answer} saved={saved} pinned={pinned.includes('brand')} />
          <ColourSection answer={answer} saved={saved} pinned={pinned.includes('appearance')} />
          <LogoSection answer={answer} saved={saved} pinned={pinned.includes('appearance')} />
          <LegalSection answer={answer} saved={saved} pinned={pinned} />
        </>
      )}
    </>
  );
}
