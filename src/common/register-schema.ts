import { LanguageSchema, PasswordSchema } from './account-schemas.ts';
import { EmailSchema, NameSchema, requiredText } from './fields.ts';
import { internationalNumber, PhoneCountrySchema } from './phone.ts';
import { z } from './zod.ts';

/**
 * A registration. Apart from the other account rules because it reads the phone number with
 * libphonenumber-js (phone.ts), which only the register page should load: the number may be
 * national, read in the country chosen beside it, and is kept in E.164.
 */
/** The terms, which the register form judges on their own as well. */
export const AcceptTermsSchema = z.literal(true, { error: 'MISSING_REQUIRED_FIELD' });

export const RegisterSchema = z.pipe(
  z
    .object({
      name: NameSchema,
      email: EmailSchema,
      // What a number is made of, judged with the others; whether it is one of the country is
      // judged below, once every field has passed.
      phone: requiredText('INVALID_PHONE').check(
        z.maxLength(40, 'INVALID_PHONE'),
        z.regex(/^\+?[\d\s().-]*\d[\d\s().-]*$/, 'INVALID_PHONE'),
        z.refine((phone) => phone.replace(/\D/g, '').length >= 6, 'INVALID_PHONE'),
      ),
      phoneCountry: PhoneCountrySchema,
      password: PasswordSchema,
      acceptTerms: AcceptTermsSchema,
      language: LanguageSchema,
      /** The honeypot: hidden from people, so only a robot fills it in. */
      website: z.optional(z.string().check(z.maxLength(500))),
    })
    .check(
      z.refine((input) => internationalNumber(input.phone, input.phoneCountry) !== null, {
        error: 'INVALID_PHONE',
        path: ['phone'],
      }),
    ),
  z.transform(({ phoneCountry, ...input }) => ({
    ...input,
    phone: internationalNumber(input.phone, phoneCountry) ?? input.phone,
  })),
);
