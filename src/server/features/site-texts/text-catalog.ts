import { LANGUAGES, type Language, type Texts } from '#common/languages.ts';
import {
  EDITABLE_NAMESPACES,
  type EditableNamespace,
  isSiteText,
  type StatusCounts,
  TEXT_PART_NAMESPACES,
  type TextEntry,
} from '#common/site-texts.ts';
import { partKey } from '#server/site/live-pages.ts';
import type { StoredText } from './text-queries.ts';
import { placeholdersOf, pluralFormOf, pluralForms, textStatus } from './text-rules.ts';
import { flattenTexts, type TextTree, withTexts } from './text-tree.ts';

const addressKey = (language: string, namespace: string, key: string) => `${language}\u0000${namespace}\u0000${key}`;

/**
 * The site's texts as the release ships them (public/locales, unfilled) with what the console
 * published over them, and the drafts when asked: the one place that knows which text a page shows
 * and in what state each translation is.
 */
export class TextCatalog {
  private readonly flat = new Map<string, Map<string, string>>();
  private published = new Map<string, StoredText>();

  private readonly shippedTexts: Texts;

  constructor(shippedTexts: Texts) {
    this.shippedTexts = shippedTexts;
    for (const language of LANGUAGES) {
      for (const namespace of EDITABLE_NAMESPACES) {
        const flat = flattenTexts(shippedTexts[language]?.[namespace] ?? {});
        for (const key of flat.keys()) if (!isSiteText(namespace, key)) flat.delete(key);
        this.flat.set(partKey(language, namespace), flat);
      }
    }
  }

  /** Takes the published texts; says which language/namespace parts now read differently. */
  setPublished(rows: readonly StoredText[]): Set<string> {
    const next = new Map(rows.map((row) => [addressKey(row.language, row.namespace, row.key), row]));
    const changed = new Set<string>();
    for (const [key, row] of next) {
      if (this.published.get(key)?.value !== row.value) changed.add(partKey(row.language, row.namespace));
    }
    for (const [key, row] of this.published) {
      if (!next.has(key)) changed.add(partKey(row.language, row.namespace));
    }
    this.published = next;
    return changed;
  }

  /**
   * The text-part namespaces (`TEXT_PART_NAMESPACES`) published over the release's in some
   * language, as `language/namespace`, sorted: what every page names for its chat (decision 235).
   */
  editedParts(): string[] {
    const parts = new Set<string>();
    for (const row of this.published.values()) {
      if ((TEXT_PART_NAMESPACES as readonly string[]).includes(row.namespace))
        parts.add(partKey(row.language, row.namespace));
    }
    return [...parts].sort();
  }

  /** The text the release ships, if any. */
  shipped(language: Language, namespace: EditableNamespace, key: string): string | undefined {
    return this.flat.get(partKey(language, namespace))?.get(key);
  }

  private publishedRow(language: Language, namespace: EditableNamespace, key: string) {
    return this.published.get(addressKey(language, namespace, key));
  }

  /** The published text, or undefined where the language has none. */
  value(language: Language, namespace: EditableNamespace, key: string): string | undefined {
    return this.publishedRow(language, namespace, key)?.value ?? this.shipped(language, namespace, key);
  }

  /** The published English text a key of `language` translates (a plural form reads English's `_other`). */
  english(namespace: EditableNamespace, key: string): string | undefined {
    const direct = this.value('en', namespace, key);
    const form = pluralFormOf(key);
    return direct ?? (form ? this.value('en', namespace, `${key.slice(0, -form.length - 1)}_other`) : undefined);
  }

  /** The keys a language has in a namespace: English's (less plural forms it does not use) and its own forms. */
  keys(language: Language, namespace: EditableNamespace): string[] {
    const forms = pluralForms(language);
    const uses = (key: string) => {
      const form = pluralFormOf(key);
      return !form || forms.includes(form);
    };
    const english = [...(this.flat.get(partKey('en', namespace))?.keys() ?? [])].filter(uses);
    const own = [...(this.flat.get(partKey(language, namespace))?.keys() ?? [])].filter(
      (key) => pluralFormOf(key) !== null && uses(key),
    );
    return [...new Set([...english, ...own])];
  }

  /** Every text of a namespace in one language, with its draft and state. */
  entries(
    language: Language,
    namespace: EditableNamespace,
    drafts: ReadonlyMap<string, string> = new Map(),
  ): TextEntry[] {
    return this.keys(language, namespace).map((key) => {
      const english = this.english(namespace, key) ?? '';
      const value = this.value(language, namespace, key) ?? '';
      const shipped = this.shipped(language, namespace, key);
      // A translation from the release was written against the English text of the release.
      const source = this.publishedRow(language, namespace, key)?.source ?? this.shippedEnglish(namespace, key);
      return {
        key,
        english,
        value,
        draft: drafts.get(addressKey(language, namespace, key)) ?? null,
        status: textStatus(language, value, english, source ?? english),
        edited: value !== (shipped ?? ''),
        placeholders: placeholdersOf(english),
      };
    });
  }

  private shippedEnglish(namespace: EditableNamespace, key: string): string | undefined {
    const form = pluralFormOf(key);
    return (
      this.shipped('en', namespace, key) ??
      (form ? this.shipped('en', namespace, `${key.slice(0, -form.length - 1)}_other`) : undefined)
    );
  }

  counts(language: Language, namespace: EditableNamespace): StatusCounts {
    const counts: StatusCounts = { missing: 0, review: 0, done: 0 };
    for (const entry of this.entries(language, namespace)) counts[entry.status] += 1;
    return counts;
  }

  /**
   * A namespace as a page reads it: the release's tree with the published texts (and `drafts`, keyed
   * by `draftKey`) over it. The shape never changes.
   */
  tree(language: Language, namespace: string, drafts: ReadonlyMap<string, string> = new Map()): TextTree {
    const shippedTree = (this.shippedTexts[language]?.[namespace] ?? {}) as TextTree;
    if (!(EDITABLE_NAMESPACES as readonly string[]).includes(namespace)) return shippedTree;
    const values = new Map<string, string>();
    const prefix = addressKey(language, namespace, '');
    for (const [key, row] of this.published) if (key.startsWith(prefix)) values.set(row.key, row.value);
    for (const [key, value] of drafts) if (key.startsWith(prefix)) values.set(key.slice(prefix.length), value);
    return withTexts(shippedTree, values);
  }

  /** Every namespace of `languages` as the pages read them. */
  texts(languages: readonly Language[] = LANGUAGES, drafts?: ReadonlyMap<string, string>): Texts {
    const out: Texts = {};
    for (const language of languages) {
      out[language] = {};
      for (const namespace of Object.keys(this.shippedTexts[language] ?? {})) {
        out[language][namespace] = this.tree(language, namespace, drafts);
      }
    }
    return out;
  }
}

/** Drafts keyed as the catalog reads them. */
export function draftMap(drafts: readonly StoredText[]): Map<string, string> {
  return new Map(drafts.map((draft) => [addressKey(draft.language, draft.namespace, draft.key), draft.value]));
}
