import type { Language, Texts } from '#common/languages.ts';

/** What a prerendered page hands the app so that it hydrates without fetching anything. */
export interface BootData {
  language: Language;
  resources: Texts;
  /** The strings Intl formatted for the page, by kind, language and value (see lib/formats.ts). */
  formatted: Record<string, string>;
}

export const BOOT_ELEMENT_ID = 'boot-data';

/** JSON that is safe inside a <script> element: `<` cannot close it or open a comment. */
export function serializeBootData(data: BootData): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}
