import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A labelled field of the brand page: its hint, a "still missing" note for a legal fact the pages
 * show as a placeholder, and its error, all linked to the input by aria-describedby. Read-only when
 * config.json pins its part. `lines` makes it a text of one entry per line.
 */
export function BrandField({
  id,
  label,
  value,
  onChange,
  hint,
  error,
  missing = false,
  readOnly = false,
  lines = false,
  type = 'text',
  autoComplete = 'off',
  lang,
  inputMode,
  after,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint?: string;
  error?: string;
  missing?: boolean;
  readOnly?: boolean;
  lines?: boolean;
  type?: string;
  autoComplete?: string;
  /** The language the value is written in, when it is not the console's. */
  lang?: string;
  inputMode?: 'numeric' | 'email' | 'tel' | 'url';
  after?: ReactNode;
}) {
  const { t } = useTranslation('console');
  const described = [hint && `${id}-hint`, missing && `${id}-missing`, error && `${id}-error`].filter(Boolean);
  const input = {
    id,
    value,
    readOnly,
    lang,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': described.join(' ') || undefined,
    'aria-required': missing || undefined,
  };
  return (
    <div className={`field brand-field${error ? ' field--invalid' : ''}${missing ? ' brand-field--missing' : ''}`}>
      <label htmlFor={id}>
        {label}
        {missing && (
          <span className="field__required" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      <div className="field__control">
        {lines ? (
          <textarea {...input} rows={3} onChange={(event) => onChange(event.target.value)} />
        ) : (
          <input
            {...input}
            type={type}
            inputMode={inputMode}
            autoComplete={autoComplete}
            onChange={(event) => onChange(event.target.value)}
          />
        )}
        {after}
      </div>
      {hint && (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      )}
      {missing && (
        <p id={`${id}-missing`} className="brand-field__missing">
          {t('brand.legal.missingField')}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}
