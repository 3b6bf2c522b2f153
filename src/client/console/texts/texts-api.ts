import { consoleCall } from '#client/console/api.ts';
import type { Language } from '#common/languages.ts';
import type { PageId } from '#common/routes.ts';
import {
  type EditableNamespace,
  type NamespaceTexts,
  type PublishPlan,
  TEXTS_API,
  type TextEntry,
  type TextHistoryEntry,
  type TextsOverview,
  withNamespace,
} from '#common/site-texts.ts';

/** The texts editor's calls (src/common/site-texts.ts), each answering an `ApiResult`. */
export const textsApi = {
  overview: () => consoleCall<TextsOverview>(TEXTS_API.overview),
  namespace: (namespace: EditableNamespace, language: Language) =>
    consoleCall<NamespaceTexts>(
      `${withNamespace(TEXTS_API.namespace, namespace)}?${new URLSearchParams({ language })}`,
    ),
  saveDraft: (namespace: EditableNamespace, language: Language, key: string, value: string) =>
    consoleCall<TextEntry>(withNamespace(TEXTS_API.draft, namespace), { language, key, value }, { method: 'PUT' }),
  dropDraft: (namespace: EditableNamespace, language: Language, key: string) =>
    consoleCall<unknown>(withNamespace(TEXTS_API.draft, namespace), { language, key }, { method: 'DELETE' }),
  history: (namespace: EditableNamespace, language: Language, key: string) =>
    consoleCall<{ history: TextHistoryEntry[] }>(
      `${withNamespace(TEXTS_API.history, namespace)}?${new URLSearchParams({ language, key })}`,
    ),
  undo: (namespace: EditableNamespace, language: Language, key: string) =>
    consoleCall<unknown>(withNamespace(TEXTS_API.undo, namespace), { language, key }),
  plan: () => consoleCall<PublishPlan>(TEXTS_API.publish),
  publish: (confirmPlaceholders: boolean) => consoleCall<PublishPlan>(TEXTS_API.publish, { confirmPlaceholders }),
};

/** The preview of a page in a language with the drafts, opened in a tab of its own. */
export const previewPath = (page: PageId, language: Language) =>
  `${TEXTS_API.preview}?${new URLSearchParams({ page, language })}`;
