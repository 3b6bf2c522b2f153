import { useEffect, useState } from 'react';
import { FieldMessage, type FieldState } from '#client/features/forms/index.ts';
import type { Language } from '#common/languages.ts';
import { PHONE_COUNTRIES, type PhoneCountry, suggestedPhoneCountry } from '#common/phone-countries.ts';

/** Every country by its name in the page's language, in that language's alphabetical order. */
function countryOptions(language: Language): { value: PhoneCountry; label: string }[] {
  const names = new Intl.DisplayNames([language], { type: 'region' });
  const collator = new Intl.Collator(language);
  return PHONE_COUNTRIES.map((code) => ({ value: code, label: names.of(code) ?? code })).sort((a, b) =>
    collator.compare(a.label, b.label),
  );
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
    setOptions(countryOptions(language));
    const browser = suggestedPhoneCountry(language, navigator.languages);
    // Once, when the page has hydrated: later changes are the visitor's.
    if (value === suggestedPhoneCountry(language)) onChange(browser);
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
