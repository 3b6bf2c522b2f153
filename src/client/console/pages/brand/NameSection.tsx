import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BrandField } from './BrandField.tsx';
import { changeBrand } from './brand-api.ts';
import { SectionActions } from './SectionActions.tsx';
import { fieldId, type SectionProps, useBrandSection } from './use-brand-section.ts';

const PATH = 'brand.siteName';

/** The site's name: in the header, the titles, the mails and every text that says {{siteName}}. */
export function NameSection({ answer, saved, pinned }: SectionProps & { pinned: boolean }) {
  const { t } = useTranslation('console');
  const title = t('brand.name.title');
  const section = useBrandSection([PATH], { saved }, title);
  const [name, setName] = useState(answer.config.brand.siteName);
  const headingId = useId();
  return (
    <section className="brand-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {pinned && <p className="brand-section__pinned">{t('brand.pinnedPart')}</p>}
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void section.save(
            () => changeBrand({ brand: { siteName: name.trim() } }),
            () => (name.trim() === '' ? { [PATH]: 'MISSING_REQUIRED_FIELD' } : {}),
          );
        }}
      >
        <BrandField
          id={fieldId(PATH)}
          label={t('brand.name.label')}
          hint={t('brand.name.hint')}
          value={name}
          readOnly={pinned}
          autoComplete="organization"
          error={section.message(PATH)}
          onChange={(next) => {
            setName(next);
            section.clear(PATH);
          }}
        />
        {!pinned && <SectionActions busy={section.busy} save={t('brand.name.save')} />}
      </form>
    </section>
  );
}
