import { useEffect, useState } from 'react';
import { FieldMessage, type FieldState } from '#client/features/forms/index.ts';
import { LANGUAGE_COUNTRY, type Language } from '#common/languages.ts';

/** Every country by its name in the page's language, in that language's alphabetical order. */
function countryOptions(language: Language, codes: readonly string[]): { value: string; label: string }[] {
  const names = new Intl.DisplayNames([language], { type: 'region' });
  const collator = new Intl.Collator(language);
  return codes
    .map((code) => ({ value: code, label: names.of(code) ?? code }))
    .sort((a, b) => collator.compare(a.label, b.label));
}

/**
 * The country the phone number is read in, preselected from the page's language. The page is
 * written with that one country only: the 245 names would weigh on every load of the page, and
 * the server's and the browser's name lists may differ by a letter, which hydration would not
 * forgive. After hydration the full list arrives, and the browser's own region (en-US) is chosen
 * if the visitor has not chosen yet. The select keeps its width from the sheet, so the page does not
 * move when the list grows.
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
    // The list comes after hydration, in a chunk of its own: the page's start carries one country.
    void import('#common/phone-countries.ts').then(({ PHONE_COUNTRIES, suggestedPhoneCountry }) => {
      setOptions(countryOptions(language, PHONE_COUNTRIES));
      // Once, when the page has hydrated: later changes are the visitor's.
      if (value === LANGUAGE_COUNTRY[language]) onChange(suggestedPhoneCountry(language, navigator.languages));
    });
  }, [language]);
  const shown = options ?? [
    {
      value: String(value),
      label: new Intl.DisplayNames([language], { type: 'region' }).of(String(value)) ?? String(value),
    },
  ];
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
