import LanguageDetector from 'i18next-browser-languagedetector';
import { DETECTION } from '#client/features/i18n/index.ts';
import { bestLanguage } from '#common/languages.ts';

// Inlined into the root page, which has no language of its own: picks the stored choice if it is
// supported, else the first supported browser language, else English, and replaces the address so
// that Back does not return here. The detector drops values that look like script or markup.
const detector = new LanguageDetector({ languageUtils: { getBestMatchFromCodes: bestLanguage } } as never, DETECTION);
const detected = detector.detect(['localStorage', 'navigator']);
const language = bestLanguage(Array.isArray(detected) ? detected : detected ? [detected] : []);
window.location.replace(`/${language}${window.location.search}${window.location.hash}`);
