import type { Language } from '#common/languages.ts';
import { PHONE_COUNTRIES, suggestedPhoneCountry } from '#common/phone-countries.ts';

export interface CountryNames {
  /** Every country by its name in the page's language, in that language's alphabetical order. */
  options: { value: string; label: string }[];
  /** The country the browser's own languages suggest (suggestedPhoneCountry). */
  suggested: string;
}

// The first Intl.DisplayNames a page makes costs Chromium 25 to 60 ms (it loads its locale data),
// a long task on the main thread; here it runs beside it.
self.onmessage = ({ data: language }: MessageEvent<Language>) => {
  const names = new Intl.DisplayNames([language], { type: 'region' });
  const collator = new Intl.Collator(language);
  const options = PHONE_COUNTRIES.map((code) => ({ value: code, label: names.of(code) ?? code })).sort((a, b) =>
    collator.compare(a.label, b.label),
  );
  self.postMessage({ options, suggested: suggestedPhoneCountry(language, navigator.languages) } satisfies CountryNames);
};
