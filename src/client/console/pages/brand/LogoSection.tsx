import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ErrorCode } from '#common/error-codes.ts';
import { LANGUAGE_NAMES, LANGUAGES, type Language } from '#common/languages.ts';
import { LOGO_TYPES, MAX_LOGO_BYTES } from '#common/site-brand.ts';
import { BrandField } from './BrandField.tsx';
import { changeBrand, removeLogo, sendLogo } from './brand-api.ts';
import { SectionActions } from './SectionActions.tsx';
import { fieldId, type SectionProps, useBrandSection } from './use-brand-section.ts';

const FILE = 'logo';
const altPath = (language: Language) => `logoAlt.${language}`;
const PATHS = [FILE, ...LANGUAGES.map(altPath)];

/** The chosen file as a data: address (the console's policy allows those for images, not blob:). */
function useDataUrl(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    setUrl(null);
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => setUrl(typeof reader.result === 'string' ? reader.result : null);
    reader.readAsDataURL(file);
    return () => reader.abort();
  }, [file]);
  return url;
}

/** What the browser can tell of a file before sending it; the server checks the image itself. */
function checkFile(file: File): ErrorCode | undefined {
  const typed = (LOGO_TYPES as readonly string[]).includes(file.type) || /\.(png|svg)$/i.test(file.name);
  if (!typed) return 'LOGO_NOT_IMAGE';
  if (file.size > MAX_LOGO_BYTES) return 'LOGO_TOO_LARGE';
  return undefined;
}

/**
 * The logo: a PNG or a plain SVG shown in the header, mails and share images (and drawn into the
 * favicon), previewed before it is sent, with the text that stands for it in each language.
 */
export function LogoSection({ answer, saved, pinned }: SectionProps & { pinned: boolean }) {
  const { t } = useTranslation('console');
  const title = t('brand.logo.title');
  const section = useBrandSection(PATHS, { saved }, title);
  const logo = answer.config.appearance.logo;
  const [file, setFile] = useState<File | null>(null);
  const [alt, setAlt] = useState<Record<Language, string>>(
    () =>
      Object.fromEntries(LANGUAGES.map((language) => [language, logo?.alt[language] ?? ''])) as Record<
        Language,
        string
      >,
  );
  const input = useRef<HTMLInputElement>(null);
  const preview = useDataUrl(file);
  const headingId = useId();
  const shown = preview ?? logo?.path ?? null;

  const submit = () =>
    section.save(
      async () => {
        if (file) {
          const sent = await sendLogo(file);
          if (!sent.ok) return { ...sent, fields: { [FILE]: sent.code } };
        }
        const texts = Object.fromEntries(
          LANGUAGES.flatMap((language) => (alt[language].trim() ? [[language, alt[language].trim()]] : [])),
        );
        const result = await changeBrand({ logoAlt: texts });
        if (result.ok) {
          setFile(null);
          if (input.current) input.current.value = '';
        }
        return result;
      },
      () => {
        const problem = file ? checkFile(file) : undefined;
        return problem ? { [FILE]: problem } : {};
      },
    );

  return (
    <section className="brand-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <p className="brand-section__help">{t('brand.logo.help')}</p>
      {pinned && <p className="brand-section__pinned">{t('brand.pinnedPart')}</p>}
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <div className="brand-logo">
          <figure className="brand-logo__preview">
            {shown ? (
              <img src={shown} alt={t(preview ? 'brand.logo.previewChosen' : 'brand.logo.previewCurrent')} />
            ) : (
              <span className="brand-logo__none">{t('brand.logo.none')}</span>
            )}
            <figcaption>
              {t(preview ? 'brand.logo.chosen' : logo ? 'brand.logo.current' : 'brand.logo.designMark')}
            </figcaption>
          </figure>
          {!pinned && (
            <div className={`field${section.message(FILE) ? ' field--invalid' : ''}`}>
              <label htmlFor={fieldId(FILE)}>{t('brand.logo.file')}</label>
              <input
                ref={input}
                id={fieldId(FILE)}
                className="brand-logo__file"
                type="file"
                accept={LOGO_TYPES.join(',')}
                aria-invalid={section.message(FILE) ? true : undefined}
                aria-describedby={[`${fieldId(FILE)}-hint`, section.message(FILE) && `${fieldId(FILE)}-error`]
                  .filter(Boolean)
                  .join(' ')}
                onChange={(event) => {
                  setFile(event.target.files?.[0] ?? null);
                  section.clear(FILE);
                }}
              />
              <p id={`${fieldId(FILE)}-hint`} className="field__hint">
                {t('brand.logo.fileHint')}
              </p>
              {section.message(FILE) && (
                <p id={`${fieldId(FILE)}-error`} className="field__error">
                  {section.message(FILE)}
                </p>
              )}
            </div>
          )}
        </div>
        <fieldset className="brand-section__group">
          <legend>{t('brand.logo.altTitle')}</legend>
          <p className="brand-section__help">{t('brand.logo.altHelp')}</p>
          <div className="brand-grid">
            {LANGUAGES.map((language) => (
              <BrandField
                key={language}
                id={fieldId(altPath(language))}
                label={t('brand.logo.alt', { language: LANGUAGE_NAMES[language] })}
                value={alt[language]}
                lang={language}
                readOnly={pinned}
                error={section.message(altPath(language))}
                onChange={(next) => setAlt((now) => ({ ...now, [language]: next }))}
              />
            ))}
          </div>
        </fieldset>
        {!pinned && (
          <SectionActions busy={section.busy} save={t(file ? 'brand.logo.upload' : 'brand.logo.save')}>
            {logo && (
              <button
                type="button"
                className="button button--secondary"
                aria-disabled={section.busy || undefined}
                onClick={() => void section.save(removeLogo)}
              >
                {t('brand.logo.remove')}
              </button>
            )}
          </SectionActions>
        )}
      </form>
    </section>
  );
}
