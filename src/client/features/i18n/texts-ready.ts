import type { i18n } from 'i18next';
import type { Language, Namespace } from '#common/languages.ts';

const attempts = new Map<string, Promise<void>>();

/**
 * True when a language and its namespaces are loaded and active; otherwise the promise of getting
 * there, the same one for every render of one navigation (`attempt`), so that a component can
 * suspend on it with `use`. A failed attempt stays failed, so the error reaches the error boundary
 * instead of loading again on every render; the next navigation makes a new attempt.
 */
export function textsReady(
  instance: i18n,
  language: Language,
  namespaces: readonly Namespace[],
  attempt: string,
): true | Promise<void> {
  const missing = namespaces.filter((ns) => !instance.hasResourceBundle(language, ns));
  if (missing.length === 0 && instance.language === language) return true;
  const key = `${attempt}|${language}|${namespaces.join(',')}`;
  let promise = attempts.get(key);
  if (!promise) {
    promise = (async () => {
      if (missing.length > 0) await instance.reloadResources([language], missing);
      const failed = missing.filter((ns) => !instance.hasResourceBundle(language, ns));
      if (failed.length > 0) throw new Error(`texts not available: ${language}/${failed.join(',')}`);
      if (instance.language !== language) await instance.changeLanguage(language);
      attempts.delete(key);
    })();
    attempts.set(key, promise);
  }
  return promise;
}
