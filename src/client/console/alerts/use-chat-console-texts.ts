import { loaders as consoleTexts } from 'virtual:texts/chat/console';
import { useTranslation } from 'react-i18next';
import { useTextPart } from '#client/lib/use-text-part.ts';
import { isLanguage } from '#common/languages.ts';

/** The console chat's texts (chat.json, `console`), in the console's language; null while they load. */
export function useChatConsoleTexts() {
  const { i18n } = useTranslation();
  const loaded = useTextPart(consoleTexts, isLanguage(i18n.language) ? i18n.language : 'en', 'chat', 'console');
  return loaded ? i18n.getFixedT(loaded, 'chat', 'console') : null;
}
