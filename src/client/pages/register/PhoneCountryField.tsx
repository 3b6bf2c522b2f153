import { startTransition, useEffect, useState } from 'react';
import { FieldMessage, type FieldState } from '#client/features/forms/index.ts';
import { countryName } from '#client/lib/formats.ts';
import { LANGUAGE_COUNTRY, type Language } from '#common/languages.ts';
import type { CountryNames } from './country-names.worker.ts';

/**
 * The country the phone number is read in, preselected from the page's language. The page is
 * written with that one country only: the 245 names would weigh on every load of the page, and
 * the server's and the browser's name lists may differ by a letter, which hydration would not
 * forgive; hydration reads that country's name from the boot data (countryName). After hydration
 * a worker names every country (country-names.worker.ts), so that Intl's start stays off the main
 * thread; the full list arrives, and the browser's own region (en-US) is chosen if the visitor has
 * not chosen yet. The select keeps its width from the sheet, so the page does not move when the list
 * grows. Should the worker fail, the select keeps the page language's country.
 */
export function PhoneCountryField({
  field,
  label,
  language,
}: {
  field: FieldState;
  label: string;
  language: Language;
}) {
  const [options, setOptions] = useState<{ value: string; label: string }[] | null>(null);
  const { onChange, value } = field;
  useEffect(() => {
    const worker = new Worker(new URL('./country-names.worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = ({ data }: MessageEvent<CountryNames>) => {
      worker.terminate();
      startTransition(() => {
        setOptions(data.options);
        // Once, when the page has hydrated: later changes are the visitor's.
        if (value === LANGUAGE_COUNTRY[language]) onChange(data.suggested);
      });
    };
    worker.postMessage(language);
    return () => worker.terminate();
  }, [language]);
  const shown = options ?? [{ value: String(value), label: countryName(language, String(value)) }];
  const errorId = `${field.id}-error`;
  return (
    <div className={`field${field.error ? ' field--invalid' : ''}`}>
      <label htmlFor={field.id}>{label}</label>
      <div className="field__control">
        <select
          id={field.id}
          name={field.name}
          value={String(value)}
          autoComplete="tel-country-code"
          aria-invalid={field.error ? true : undefined}
          aria-describedby={field.error ? errorId : undefined}
          onChange={(event) => onChange(event.target.value)}
          onFocus={field.onFocus}
          onBlur={field.onBlur}
        >
          {shown.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <FieldMessage field={field} />
    </div>
  );
}
