import { isLanguage, LANGUAGES, type Language } from '#common/languages.ts';
import type { PageId } from '#common/routes.ts';
import {
  type EditableNamespace,
  isEditableNamespace,
  type StatusCounts,
  TEXT_STATUSES,
  type TextEntry,
  type TextsOverview,
} from '#common/site-texts.ts';

/** Which texts of a namespace the editor lists: all, those still to do (missing or to review), or one state. */
export const TEXT_FILTERS = ['all', 'open', 'missing', 'review'] as const;
export type TextFilter = (typeof TEXT_FILTERS)[number];

/** The namespace page's choices as its address holds them (`?language=th&show=open&q=title`). */
export interface TextsQuery {
  language: Language;
  show: TextFilter;
  search: string;
}

export function readTextsQuery(query: URLSearchParams, fallback: Language): TextsQuery {
  const language = query.get('language');
  const show = query.get('show');
  return {
    language: isLanguage(language) ? language : fallback,
    show: (TEXT_FILTERS as readonly string[]).includes(show ?? '') ? (show as TextFilter) : 'all',
    search: query.get('q')?.trim() ?? '',
  };
}

/** The query string for a namespace page's choices, leaving out the defaults. */
export function textsQueryString({ language, show, search }: TextsQuery): string {
  const query = new URLSearchParams({ language });
  if (show !== 'all') query.set('show', show);
  if (search) query.set('q', search);
  return `?${query}`;
}

const matchesFilter = (entry: TextEntry, show: TextFilter) =>
  show === 'all' || (show === 'open' ? entry.status !== 'done' : entry.status === show);

/**
 * The texts the filter and the search let through. The search looks in the key, the English text,
 * the published text and the draft, ignoring case, so that a phrase seen on the page finds its key.
 */
export function filterTexts(texts: readonly TextEntry[], show: TextFilter, search = ''): TextEntry[] {
  const needle = search.trim().toLocaleLowerCase();
  return texts.filter(
    (entry) =>
      matchesFilter(entry, show) &&
      (!needle ||
        [entry.key, entry.english, entry.value, entry.draft ?? ''].some((text) =>
          text.toLocaleLowerCase().includes(needle),
        )),
  );
}

/** Texts in groups by the first part of their key (`hero`, `offers`, …), in the order they come. */
export function groupTexts(texts: readonly TextEntry[]): { group: string; texts: TextEntry[] }[] {
  const groups = new Map<string, TextEntry[]>();
  for (const entry of texts) {
    const group = entry.key.split('.')[0] ?? entry.key;
    groups.set(group, [...(groups.get(group) ?? []), entry]);
  }
  return [...groups].map(([group, entries]) => ({ group, texts: entries }));
}

export const noCounts = (): StatusCounts => ({ missing: 0, review: 0, done: 0 });

/** Each language's counts over all namespaces: the overview's first table. */
export function countsPerLanguage(overview: TextsOverview): Record<Language, StatusCounts> {
  const totals = Object.fromEntries(LANGUAGES.map((language) => [language, noCounts()])) as Record<
    Language,
    StatusCounts
  >;
  for (const { counts } of overview.namespaces) {
    for (const language of LANGUAGES) {
      for (const status of TEXT_STATUSES) totals[language][status] += counts[language]?.[status] ?? 0;
    }
  }
  return totals;
}

/** The pages that show a namespace's texts, for its preview links. */
export const pagesShowing = (overview: TextsOverview, namespace: EditableNamespace): PageId[] =>
  overview.pages.filter((entry) => entry.namespaces.includes(namespace)).map((entry) => entry.page);

/**
 * Where a placeholder the server names is fixed: `home:hero.lead` in its group's editor, searched
 * by its key; `config.json:company.email` is a fact of the configuration, not a text (null).
 */
export function placeholderTarget(
  name: string,
  language: Language,
): { namespace: EditableNamespace; query: string } | null {
  const colon = name.indexOf(':');
  const namespace = name.slice(0, colon);
  const key = name.slice(colon + 1);
  if (colon < 1 || !key || !isEditableNamespace(namespace)) return null;
  return { namespace, query: textsQueryString({ language, show: 'all', search: key }) };
}
