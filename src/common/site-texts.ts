import { DRAFTED_TEXTS_API, DRAFTS_QUERY } from './edited-texts.ts';
import { LANGUAGES, type Language } from './languages.ts';
import { PAGE_IDS, type PageId, pagePath } from './routes.ts';
import { z } from './zod.ts';

/**
 * The texts editor of the console (editors and admins): every text of the site's pages, per
 * language, edited as drafts, previewed, then published without a rebuild (decision 200).
 */
export const TEXTS_API = {
  /** GET: the namespaces and pages with their translation status counts per language. */
  overview: '/api/console/texts',
  /** GET `?language=`: one namespace's texts in one language, beside the English ones. */
  namespace: '/api/console/texts/:namespace',
  /** PUT `{ language, key, value }` saves a draft; DELETE `{ language, key }` drops it. */
  draft: '/api/console/texts/:namespace/draft',
  /**
   * GET `?language=`: the namespace as the site reads it with the drafts over the published texts,
   * for a preview the browser draws itself (the chat's: see `TEXT_PART_NAMESPACES`).
   */
  drafted: DRAFTED_TEXTS_API,
  /** GET `?language=&key=`: what was published for one text, newest first. */
  history: '/api/console/texts/:namespace/history',
  /** POST `{ language, key }`: publishes the value before the last one again (or the shipped one). */
  undo: '/api/console/texts/:namespace/undo',
  /** GET `?page=&language=`: the page as HTML with the drafts, scripts off (a picture of the draft). */
  preview: '/api/console/texts-preview',
  /** GET: what a publish would change; POST `{ confirmPlaceholders }`: publishes every draft. */
  publish: '/api/console/texts-publish',
} as const;

/** A path of the table with its `:namespace` filled in. */
export const withNamespace = (path: string, namespace: string) =>
  path.replace(':namespace', encodeURIComponent(namespace));

/**
 * The namespaces the editor offers: every text the site shows visitors or sends by mail (decisions
 * 200 and 235). The console's own texts (console.json, and the parts of chat.json its screens read:
 * `CONSOLE_PARTS`) are not site texts: they change with a release.
 */
export const EDITABLE_NAMESPACES = [
  'common',
  'home',
  'about',
  'contact',
  'login',
  'register',
  'settings',
  'privacy',
  'cookie',
  'terms',
  'legal',
  'errors',
  'validation',
  'chat',
] as const;
export type EditableNamespace = (typeof EDITABLE_NAMESPACES)[number];
export const isEditableNamespace = (value: unknown): value is EditableNamespace =>
  typeof value === 'string' && (EDITABLE_NAMESPACES as readonly string[]).includes(value);

/** The top-level parts of an editable namespace that only the console's screens read: not offered. */
export const CONSOLE_PARTS: Partial<Record<EditableNamespace, readonly string[]>> = { chat: ['console', 'desk'] };

/** Whether the editor offers the text at `key` (a dotted path) of `namespace`. */
export const isSiteText = (namespace: EditableNamespace, key: string): boolean =>
  !CONSOLE_PARTS[namespace]?.includes(key.split('.')[0] ?? '');

/**
 * The editable namespaces no page's HTML carries: the code that shows them after the first paint
 * brings the release's texts in chunks of its own (scripts/build/vite-text-parts.ts). Where one is
 * published over in a language, every page says so (src/common/edited-texts.ts) and that code reads
 * the texts file instead (decision 235).
 */
export const TEXT_PART_NAMESPACES: readonly EditableNamespace[] = ['chat'];

/**
 * A text-part namespace's preview: the live home page with the chat open (`#chat`), whose code
 * reads the drafts (`TEXTS_API.drafted`) when the address asks for them and the editor may.
 */
export const chatPreviewPath = (language: Language) => `${pagePath(language, 'home')}?${DRAFTS_QUERY}#chat`;

/**
 * A text's state in one language: `missing` (empty or absent), `review` (the English text changed
 * since this one was written), `done`. English texts are `done` or `missing`.
 */
export const TEXT_STATUSES = ['missing', 'review', 'done'] as const;
export type TextStatus = (typeof TEXT_STATUSES)[number];
export type StatusCounts = Record<TextStatus, number>;

/** Longest text a draft may hold, in characters (the privacy policy's longest paragraph is far below). */
export const MAX_TEXT_LENGTH = 5_000;

export interface TextsOverview {
  namespaces: { namespace: EditableNamespace; counts: Record<Language, StatusCounts> }[];
  /** Each page with the namespaces it shows and the counts over them. */
  pages: { page: PageId; namespaces: EditableNamespace[]; counts: Record<Language, StatusCounts> }[];
  /** Drafts waiting to be published, all languages. */
  drafts: number;
  /** What each page still shows as a stand-in text or a fact config.json leaves out, per language. */
  placeholders: PagePlaceholders[];
}

/** The stand-in texts (`namespace:key`) and missing facts (`config.json:company.email`) of a page in one language. */
export interface PagePlaceholders {
  page: PageId;
  language: Language;
  keys: string[];
}

export interface TextEntry {
  /** Dotted path in the namespace: `hero.title`, `offers.items.0.body`. */
  key: string;
  /** The published English text. */
  english: string;
  /** The published text in the language asked for ("" when missing). */
  value: string;
  /** The saved draft, or null. */
  draft: string | null;
  status: TextStatus;
  /** Whether the published text differs from the one the release shipped. */
  edited: boolean;
  /** `{{name}}` placeholders the text must keep (from the English text). */
  placeholders: string[];
}

export interface NamespaceTexts {
  namespace: EditableNamespace;
  language: Language;
  texts: TextEntry[];
}

export interface TextHistoryEntry {
  id: string;
  /** The text as published then; null when it went back to the shipped text. */
  value: string | null;
  by: string;
  at: string;
}

/** A draft waiting to be published. */
export interface PendingText {
  namespace: EditableNamespace;
  language: Language;
  key: string;
  value: string;
}

/** What the publish step shows before it publishes (GET) and answers after (POST). */
export interface PublishPlan {
  drafts: PendingText[];
  /** The pages (each in the languages named) whose HTML the drafts change. */
  pages: { page: PageId; languages: Language[] }[];
  /** Texts on those pages still shown as placeholders or "not configured", per page and language. */
  placeholders: PagePlaceholders[];
}

const TextKeySchema = z.string().check(z.minLength(1), z.maxLength(200), z.regex(/^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/));
const LanguageField = z.enum(LANGUAGES);

export const TextAddressSchema = z.object({ language: LanguageField, key: TextKeySchema });
export const DraftSchema = z.object({
  language: LanguageField,
  key: TextKeySchema,
  value: z.string().check(z.maxLength(MAX_TEXT_LENGTH, { error: 'TEXT_TOO_LONG' })),
});
export const LanguageQuerySchema = z.object({ language: LanguageField });
export const PreviewQuerySchema = z.object({
  page: z.enum(PAGE_IDS as [PageId, ...PageId[]]),
  language: LanguageField,
});
export const PublishSchema = z.object({ confirmPlaceholders: z._default(z.boolean(), false) });
