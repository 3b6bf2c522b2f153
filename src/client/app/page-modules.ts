import type { ComponentType } from 'react';
import { PAGES, type PageId } from '#common/routes.ts';

type PageModule = { default: ComponentType };

/** A page's module as a path relative to this file, from the page table. */
const pageSource = (page: PageId) => `../pages/${PAGES[page].module}.tsx`;

// Every page module, each its own chunk, fetched on the first visit to its page.
const importers = import.meta.glob<PageModule>('../pages/*/*Page.tsx');

const loaded = new Map<PageId, ComponentType>();
const loading = new Map<PageId, Promise<ComponentType>>();

/** Fetches a page's module once; a failed fetch is forgotten so the next visit tries again. */
export function loadPage(page: PageId): Promise<ComponentType> {
  let promise = loading.get(page);
  if (!promise) {
    const importer = importers[pageSource(page)];
    if (!importer) return Promise.reject(new Error(`no module for page ${page}`));
    promise = importer().then(
      (module) => {
        loaded.set(page, module.default);
        return module.default;
      },
      (error: unknown) => {
        loading.delete(page);
        throw error;
      },
    );
    loading.set(page, promise);
  }
  return promise;
}

/** The page component when its module is already here: the prerender and the first render need no wait. */
export function loadedPage(page: PageId): ComponentType | undefined {
  return loaded.get(page);
}
