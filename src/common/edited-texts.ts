// What a page and the code that shows texts after the first paint (a text part:
// scripts/build/vite-text-parts.ts) share about texts the console published over the release's
// (decision 235). Small on purpose: the chat's launcher imports it.

/**
 * The boot element's attribute that lists, as `language/namespace` separated by spaces, the
 * text-part namespaces whose published texts differ from the release's, in every language: a
 * page's chat reads those from `/locales/` instead of its chunks, also after a change of language.
 */
export const EDITED_TEXTS_ATTRIBUTE = 'data-edited-texts';

/** In a page's address, asks its text parts for the editor's drafts (the console's preview). */
export const DRAFTS_QUERY = 'texts=drafts';

/** GET `?language=`: a namespace with the drafts over the published texts (editors only). */
export const DRAFTED_TEXTS_API = '/api/console/texts/:namespace/drafted';
