import { LANGUAGES, type Language } from '#common/languages.ts';
import { missingLegalFacts } from '#common/legal-facts.ts';
import { EDITOR_ROLES } from '#common/roles.ts';
import { allPagePaths, PAGE_IDS, type PageId, pageNamespaces, pagePath } from '#common/routes.ts';
import {
  DraftSchema,
  EDITABLE_NAMESPACES,
  type EditableNamespace,
  isEditableNamespace,
  LanguageQuerySchema,
  type NamespaceTexts,
  type PagePlaceholders,
  PreviewQuerySchema,
  type PublishPlan,
  PublishSchema,
  TEXTS_API,
  TextAddressSchema,
  type TextsOverview,
} from '#common/site-texts.ts';
import type { Deps } from '#server/deps.ts';
import { requireStaff } from '#server/features/accounts/index.ts';
import { ApiError } from '#server/http/api-error.ts';
import { newRoutes } from '#server/http/context.ts';
import { jsonBody, queryParams } from '#server/http/json-body.ts';
import { draftMap } from './text-catalog.ts';
import {
  draftTexts,
  dropDraft,
  lastTwoPublications,
  publishText,
  type StoredText,
  saveDraft,
  textHistory,
} from './text-queries.ts';
import { isPlaceholderText, textProblem } from './text-rules.ts';

/** The editable namespaces a page shows. */
const editableOf = (page: PageId): EditableNamespace[] => pageNamespaces(page).filter(isEditableNamespace);

/** The pages that show the company's legal facts, which config.json holds (decision 200). */
const LEGAL_FACT_PAGES: readonly PageId[] = ['privacy', 'imprint'];

/**
 * The console's texts editor (editors and admins): read every text with its state, save drafts
 * checked against the English text, preview a page with them, publish (every instance serves the
 * new pages within moments: see SiteTexts), and see or undo what was published of one text.
 */
export function textsRoutes(deps: Deps) {
  const { db, siteTexts } = deps;
  const { catalog } = siteTexts;
  const routes = newRoutes();
  const editors = requireStaff(deps, EDITOR_ROLES);

  const namespaceOf = (value: string): EditableNamespace => {
    if (!isEditableNamespace(value)) throw new ApiError(404, 'NOT_FOUND');
    return value;
  };
  const mustExist = (language: Language, namespace: EditableNamespace, key: string) => {
    if (!catalog.keys(language, namespace).includes(key)) throw new ApiError(404, 'TEXT_NOT_FOUND');
  };

  routes.get(TEXTS_API.overview, editors, async (c) => {
    await siteTexts.refresh();
    const perNamespace = new Map(
      EDITABLE_NAMESPACES.map((namespace) => [
        namespace,
        Object.fromEntries(LANGUAGES.map((language) => [language, catalog.counts(language, namespace)])),
      ]),
    );
    const overview: TextsOverview = {
      namespaces: EDITABLE_NAMESPACES.map((namespace) => ({
        namespace,
        counts: perNamespace.get(namespace) as TextsOverview['namespaces'][number]['counts'],
      })),
      pages: PAGE_IDS.map((page) => {
        const namespaces = editableOf(page);
        const counts = Object.fromEntries(
          LANGUAGES.map((language) => {
            const sum = { missing: 0, review: 0, done: 0 };
            for (const namespace of namespaces) {
              const part = perNamespace.get(namespace)?.[language];
              if (part) for (const status of ['missing', 'review', 'done'] as const) sum[status] += part[status];
            }
            return [language, sum];
          }),
        ) as TextsOverview['pages'][number]['counts'];
        return { page, namespaces, counts };
      }),
      drafts: (await draftTexts(db)).length,
      placeholders: placeholdersOf(allPagePaths(), new Map()),
    };
    return c.json(overview);
  });

  routes.get(TEXTS_API.namespace, editors, queryParams(LanguageQuerySchema), async (c) => {
    const namespace = namespaceOf(c.req.param('namespace'));
    const { language } = c.req.valid('query');
    await siteTexts.refresh();
    const drafts = draftMap(await draftTexts(db));
    return c.json({
      namespace,
      language,
      texts: catalog.entries(language, namespace, drafts),
    } satisfies NamespaceTexts);
  });

  // The chat's preview runs on the live page, which reads its texts from here (decision 235).
  routes.get(TEXTS_API.drafted, editors, queryParams(LanguageQuerySchema), async (c) => {
    const namespace = namespaceOf(c.req.param('namespace'));
    const { language } = c.req.valid('query');
    await siteTexts.refresh();
    const drafts = draftMap(await draftTexts(db));
    return c.json(catalog.tree(language, namespace, drafts), 200, { 'Cache-Control': 'no-store' });
  });

  routes.put(TEXTS_API.draft, editors, jsonBody(DraftSchema), async (c) => {
    const namespace = namespaceOf(c.req.param('namespace'));
    const { language, key, value } = c.req.valid('json');
    await siteTexts.refresh();
    mustExist(language, namespace, key);
    const english = catalog.english(namespace, key) ?? '';
    const problem = textProblem(key, language, value, english);
    if (problem) throw new ApiError(400, problem, { fields: { value: problem } });
    await saveDraft(db, { language, namespace, key, value, source: english }, c.var.staff.accountId);
    const [entry] = catalog.entries(language, namespace, draftMap(await draftTexts(db))).filter((e) => e.key === key);
    return c.json(entry);
  });

  routes.delete(TEXTS_API.draft, editors, jsonBody(TextAddressSchema), async (c) => {
    const namespace = namespaceOf(c.req.param('namespace'));
    const { language, key } = c.req.valid('json');
    await dropDraft(db, { language, namespace, key });
    return c.json({});
  });

  routes.get(TEXTS_API.history, editors, queryParams(TextAddressSchema), async (c) => {
    const namespace = namespaceOf(c.req.param('namespace'));
    const { language, key } = c.req.valid('query');
    mustExist(language, namespace, key);
    return c.json({ history: await textHistory(db, { language, namespace, key }) });
  });

  routes.post(TEXTS_API.undo, editors, jsonBody(TextAddressSchema), async (c) => {
    const namespace = namespaceOf(c.req.param('namespace'));
    const { language, key } = c.req.valid('json');
    mustExist(language, namespace, key);
    const address = { language, namespace, key };
    const staff = c.var.staff;
    await db.transaction(async (tx) => {
      const [latest, before] = await lastTwoPublications(tx, address);
      if (!latest) throw new ApiError(409, 'NOTHING_TO_UNDO');
      await publishText(
        tx,
        { ...address, value: before?.value ?? null, source: before?.source ?? null },
        catalog.shipped(language, namespace, key),
        { accountId: staff.accountId, name: staff.name },
      );
    });
    await siteTexts.refresh();
    return c.json({});
  });

  routes.get(TEXTS_API.preview, editors, queryParams(PreviewQuerySchema), async (c) => {
    const { page, language } = c.req.valid('query');
    const publisher = siteTexts.publisher;
    // Without a build (a test, the development server) there is no page to draw.
    if (!publisher) throw new ApiError(404, 'NOT_FOUND');
    await siteTexts.refresh();
    const texts = catalog.texts([language], draftMap(await draftTexts(db)));
    const { html, policy } = await publisher.preview({ page, language, path: pagePath(language, page) }, texts);
    // Never indexed, never kept.
    return c.html(html, 200, {
      'Cache-Control': 'no-store',
      'X-Robots-Tag': 'noindex, nofollow',
      'Content-Security-Policy': policy,
    });
  });

  /** What the pages still show as stand-ins, with the drafts over the published texts. */
  const placeholdersOf = (
    targets: readonly { page: PageId; language: Language }[],
    drafts: ReadonlyMap<string, string>,
  ): PagePlaceholders[] => {
    const legal = missingLegalFacts(deps.site);
    return targets.flatMap(({ page, language }) => {
      const keys = editableOf(page).flatMap((namespace) =>
        catalog
          .entries(language, namespace, drafts)
          .filter((entry) => isPlaceholderText(entry.draft ?? entry.value))
          .map((entry) => `${namespace}:${entry.key}`),
      );
      if (LEGAL_FACT_PAGES.includes(page)) keys.push(...legal.map((fact) => `config.json:${fact}`));
      return keys.length > 0 ? [{ page, language, keys }] : [];
    });
  };

  const plan = async (): Promise<PublishPlan> => {
    await siteTexts.refresh();
    const drafts = await draftTexts(db);
    const parts = new Set(drafts.map((draft) => `${draft.language}/${draft.namespace}`));
    const targets = allPagePaths().filter(({ page, language }) =>
      editableOf(page).some((namespace) => parts.has(`${language}/${namespace}`)),
    );
    const pages = new Map<PageId, Language[]>();
    for (const { page, language } of targets) pages.set(page, [...(pages.get(page) ?? []), language]);
    const placeholders = placeholdersOf(targets, draftMap(drafts));
    return {
      drafts: drafts.map(({ namespace, language, key, value }) => ({
        namespace: namespace as EditableNamespace,
        language,
        key,
        value,
      })),
      pages: [...pages].map(([page, languages]) => ({ page, languages })),
      placeholders,
    };
  };

  routes.get(TEXTS_API.publish, editors, async (c) => c.json(await plan()));

  routes.post(TEXTS_API.publish, editors, jsonBody(PublishSchema), async (c) => {
    const { confirmPlaceholders } = c.req.valid('json');
    const planned = await plan();
    if (planned.placeholders.length > 0 && !confirmPlaceholders) throw new ApiError(409, 'PLACEHOLDERS_LEFT');
    const staff = c.var.staff;
    await db.transaction(async (tx) => {
      // What an editor saved after the plan was read is published too: the drafts as they are now.
      for (const draft of await draftTexts(tx)) {
        await publishText(
          tx,
          draft as StoredText,
          catalog.shipped(draft.language, draft.namespace as EditableNamespace, draft.key),
          { accountId: staff.accountId, name: staff.name },
        );
      }
    });
    // This instance serves the new pages before it answers; the others as they hear of it.
    await siteTexts.refresh();
    return c.json(planned);
  });

  return routes;
}
