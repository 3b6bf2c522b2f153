import { loaders as deskTexts } from 'virtual:texts/chat/desk';
import { useTranslation } from 'react-i18next';
import { useTextPart } from '#client/lib/use-text-part.ts';
import { isLanguage } from '#common/languages.ts';

/** The texts of the chat desk's controls (views, assignment, notes, saved replies), in the console's language. */
export function useDeskTexts() {
  const { i18n } = useTranslation();
  const loaded = useTextPart(deskTexts, isLanguage(i18n.language) ? i18n.language : 'en', 'chat', 'desk');
  return loaded ? i18n.getFixedT(loaded, 'chat', 'desk') : null;
}

export type DeskT = NonNullable<ReturnType<typeof useDeskTexts>>;
