import 'i18next';
import type about from '#locales/en/about.json';
import type chat from '#locales/en/chat.json';
import type common from '#locales/en/common.json';
import type consoleTexts from '#locales/en/console.json';
import type contact from '#locales/en/contact.json';
import type cookie from '#locales/en/cookie.json';
import type errors from '#locales/en/errors.json';
import type home from '#locales/en/home.json';
import type legal from '#locales/en/legal.json';
import type login from '#locales/en/login.json';
import type privacy from '#locales/en/privacy.json';
import type register from '#locales/en/register.json';
import type settings from '#locales/en/settings.json';
import type terms from '#locales/en/terms.json';
import type validation from '#locales/en/validation.json';

// English is the reference: every key used in code must exist there, and a test keeps the other
// languages' files in step with it.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    returnNull: false;
    // Filled from the brand on every call (see options.ts), so no call has to pass them.
    defaultVariables: { siteName: string; domain: string };
    resources: {
      common: typeof common;
      home: typeof home;
      about: typeof about;
      contact: typeof contact;
      login: typeof login;
      privacy: typeof privacy;
      terms: typeof terms;
      cookie: typeof cookie;
      register: typeof register;
      validation: typeof validation;
      errors: typeof errors;
      chat: typeof chat;
      legal: typeof legal;
      console: typeof consoleTexts;
      settings: typeof settings;
    };
  }
}
