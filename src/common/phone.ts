import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { requiredText } from './fields.ts';
import { PHONE_COUNTRIES, type PhoneCountry } from './phone-countries.ts';
import { z } from './zod.ts';

/**
 * Phone numbers as people write them: internationally (`+66 81 234 5678`, `0066 81 …`) or the
 * national way (`081 234 5678`) with the country chosen beside the field. Read by libphonenumber-js
 * (its smallest metadata: each country's lengths and prefixes), kept in E.164 (`+66812345678`). The
 * library is imported by this module only, which the register page loads with its rules and the
 * server with the registration.
 */

/** The number in E.164, or null when it is not a number of that country (or, without one, of any). */
export function internationalNumber(phone: string, country?: PhoneCountry): string | null {
  // 00 is the international prefix people type across most of the world; the library reads it only
  // for the chosen country's own prefix (Thailand's is 001).
  const typed = phone.trim().replace(/^00(?=[1-9])/, '+');
  const parsed = parsePhoneNumberFromString(typed, typed.startsWith('+') ? undefined : country);
  return parsed?.isValid() ? parsed.number : null;
}

/** The country chosen beside the field; absent when the form has no choice (the number is then international). */
export const PhoneCountrySchema = z.optional(z.enum(PHONE_COUNTRIES, { error: 'INVALID_PHONE' }));

/** The field's rule for one country: anything the library reads as a valid number of it, or an international one. */
export const phoneSchema = (country?: PhoneCountry) =>
  z.pipe(
    requiredText('INVALID_PHONE').check(
      z.maxLength(40, 'INVALID_PHONE'),
      z.refine((phone) => internationalNumber(phone, country) !== null, 'INVALID_PHONE'),
    ),
    z.transform((phone) => internationalNumber(phone, country) ?? phone),
  );

/** An international number alone, as typed: the rule where no country is chosen. */
export const PhoneSchema = phoneSchema();
