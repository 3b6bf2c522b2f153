import type { SavedReply } from './chat-desk-api.ts';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language } from './languages.ts';

/** `{{name}}` in a saved reply, with the spaces before it (dropped with it when the name is unknown). */
const NAME = /\s*\{\{\s*name\s*\}\}/g;

/**
 * A saved reply's text for a conversation: in its language, else the site's default language, else
 * the first language it has; `{{name}}` filled with the visitor's name, or left out when unknown
 * ("Hello {{name}}, …" becomes "Hello, …"). `language` says which text it took.
 */
export function savedReplyText(
  reply: SavedReply,
  conversationLanguage: string,
  visitorName: string | null,
): { text: string; language: Language } | null {
  const wanted = isLanguage(conversationLanguage) ? conversationLanguage : DEFAULT_LANGUAGE;
  const language = [wanted, DEFAULT_LANGUAGE, ...LANGUAGES].find((code) => reply.texts[code]);
  if (!language) return null;
  const text = (reply.texts[language] ?? '').replace(NAME, (match) =>
    visitorName ? `${match.slice(0, match.indexOf('{'))}${visitorName}` : '',
  );
  return { text, language };
}

/** The shortcut being typed: "/" and letters right before the caret, at the start or after a space. */
export function typedShortcut(text: string, caret: number): { query: string; start: number } | null {
  const match = /(^|\s)\/([\p{L}\p{N}_-]{0,32})$/u.exec(text.slice(0, caret));
  if (!match) return null;
  return { query: (match[2] ?? '').toLowerCase(), start: caret - (match[2] ?? '').length - 1 };
}

/** Saved replies whose shortcut starts with the query, then those that contain it. */
export function matchingReplies(replies: SavedReply[], query: string): SavedReply[] {
  const starts = replies.filter((reply) => reply.shortcut.startsWith(query));
  const contains = replies.filter((reply) => !reply.shortcut.startsWith(query) && reply.shortcut.includes(query));
  return [...starts, ...contains];
}
