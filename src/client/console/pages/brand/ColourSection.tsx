import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { brandPalette, isHexColour, linkContrast, MIN_CONTRAST } from '#common/brand-palette.ts';
import { BrandField } from './BrandField.tsx';
import { changeBrand } from './brand-api.ts';
import { SectionActions } from './SectionActions.tsx';
import { fieldId, type SectionProps, useBrandSection } from './use-brand-section.ts';

/** The design's own accent (tokens.css), shown when neither config.json nor the console set one. */
const DESIGN_ACCENT = '#1d4ed8';
const PATH = 'appearance.accent';

/**
 * The brand colour: a colour picker and its #rrggbb, the palette the site would derive shown on a
 * light and a dark page, the contrast of links in it, and why the site would refuse it, all while
 * the admin picks, before anything is saved.
 */
export function ColourSection({ answer, saved, pinned }: SectionProps & { pinned: boolean }) {
  const { t, i18n } = useTranslation('console');
  const { t: te } = useTranslation('errors');
  const title = t('brand.colour.title');
  const section = useBrandSection([PATH], { saved }, title);
  const [value, setValue] = useState(answer.config.appearance.accent ?? DESIGN_ACCENT);
  const headingId = useId();
  const hex = isHexColour(value);
  const ratio = hex ? linkContrast(value) : null;
  const palette = hex ? brandPalette(value) : null;
  const ratioText =
    ratio === null ? '' : new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(ratio);
  // Why the site would refuse the colour, said as soon as it is typed (and again on saving).
  const refusal = !hex ? t('brand.colour.notHex') : !palette ? te('BRAND_COLOUR_CONTRAST') : undefined;
  const error = section.message(PATH);

  return (
    <section className="brand-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <p className="brand-section__help">{t('brand.colour.help')}</p>
      {pinned && <p className="brand-section__pinned">{t('brand.pinnedPart')}</p>}
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void section.save(
            () => changeBrand({ appearance: { accent: value.toLowerCase() } }),
            () => (refusal ? { [PATH]: hex ? 'BRAND_COLOUR_CONTRAST' : 'VALIDATION_ERROR' } : {}),
          );
        }}
      >
        <div className="brand-colour">
          <label className="brand-colour__picker">
            <span className="visually-hidden">{t('brand.colour.picker')}</span>
            <input
              type="color"
              value={hex ? value.toLowerCase() : DESIGN_ACCENT}
              disabled={pinned}
              onChange={(event) => {
                setValue(event.target.value);
                section.clear(PATH);
              }}
            />
          </label>
          <BrandField
            id={fieldId(PATH)}
            label={t('brand.colour.label')}
            hint={t('brand.colour.hint')}
            value={value}
            readOnly={pinned}
            error={refusal && (value !== '' || error) ? refusal : error}
            onChange={(next) => {
              setValue(next.trim());
              section.clear(PATH);
            }}
          />
        </div>
        <p className="brand-colour__ratio" id={`${fieldId(PATH)}-ratio`}>
          {ratio === null
            ? t('brand.colour.ratioNone')
            : t(palette ? 'brand.colour.ratioGood' : 'brand.colour.ratioLow', {
                ratio: ratioText,
                minimum: MIN_CONTRAST,
              })}
        </p>
        {palette ? (
          <figure className="brand-preview">
            <figcaption className="visually-hidden">{t('brand.colour.preview')}</figcaption>
            {(['light', 'dark'] as const).map((theme) => (
              <div key={theme} className={`brand-preview__page brand-preview__page--${theme}`}>
                <p className="brand-preview__theme">{t(`brand.colour.${theme}`)}</p>
                <p>
                  <span className="brand-preview__link" style={{ color: palette[theme].accent }}>
                    {t('brand.colour.sampleLink')}
                  </span>
                </p>
                <span
                  className="brand-preview__button"
                  style={{ background: palette[theme].accent, color: palette[theme].accentText }}
                >
                  {t('brand.colour.sampleButton')}
                </span>
              </div>
            ))}
          </figure>
        ) : (
          // A colour the site refuses is shown as a plain swatch: text in it would not read.
          hex && (
            <div className="brand-preview">
              <span className="brand-preview__swatch" style={{ background: value }} />
            </div>
          )
        )}
        {!pinned && (
          <SectionActions busy={section.busy} save={t('brand.colour.save')}>
            {answer.settings.appearance !== undefined && (
              <button
                type="button"
                className="button button--secondary"
                aria-disabled={section.busy || undefined}
                onClick={() =>
                  void section.save(async () => {
                    const result = await changeBrand({ appearance: null });
                    if (result.ok) setValue(result.data.config.appearance.accent ?? DESIGN_ACCENT);
                    return result;
                  })
                }
              >
                {t('brand.colour.reset')}
              </button>
            )}
          </SectionActions>
        )}
      </form>
    </section>
  );
}
