import type { ComponentType } from 'react';
import type { PageId } from '#common/routes.ts';

type PageModule = { default: ComponentType };

/** Each page's module, relative to this file; each is its own chunk, fetched on the first visit to it. */
export const PAGE_SOURCES: Record<PageId, string> = {
  home: '../pages/home/HomePage.tsx',
  about: '../pages/about/AboutPage.tsx',
  contact: '../pages/contact/ContactPage.tsx',
  contactSent: '../pages/contact/ContactSentPage.tsx',
  privacy: '../pages/legal/PrivacyPage.tsx',
  terms: '../pages/legal/TermsPage.tsx',
  cookies: '../pages/legal/CookiePage.tsx',
  imprint: '../pages/legal/ImprintPage.tsx',
  login: '../pages/login/LoginPage.tsx',
  register: '../pages/register/RegisterPage.tsx',
  validation: '../pages/validation/ValidationPage.tsx',
  forgotPassword: '../pages/forgot-password/ForgotPasswordPage.tsx',
  account: '../pages/account/AccountPage.tsx',
};

const importers = import.meta.glob<PageModule>('../pages/*/*Page.tsx');

const loaded = new Map<PageId, ComponentType>();
const loading = new Map<PageId, Promise<ComponentType>>();

/** Fetches a page's module once; a failed fetch is forgotten so the next visit tries again. */
export function loadPage(page: PageId): Promise<ComponentType> {
  let promise = loading.get(page);
  if (!promise) {
    const importer = importers[PAGE_SOURCES[page]];
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
