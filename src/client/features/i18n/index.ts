export { createClientI18n } from './client-i18n.ts';
export { DETECTION } from './detection.ts';
export { LanguageLinks } from './LanguageLinks.tsx';
export { LanguageSwitcher } from './LanguageSwitcher.tsx';
export { baseOptions } from './options.ts';
export { rememberLanguage } from './remember-language.ts';
export { textsReady } from './texts-ready.ts';
