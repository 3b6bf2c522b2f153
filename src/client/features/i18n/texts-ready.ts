import type { i18n } from 'i18next';
import type { Language, Namespace } from '../../../common/languages.ts';

const pending = new Map<string, Promise<void>>();

/**
 * True when a language and its namespaces are loaded and active; otherwise the promise of getting
 * there, the same one for as long as it runs, so that a component can suspend on it with `use`.
 * A failure is forgotten so that the next attempt loads again.
 */
export function textsReady(instance: i18n, language: Language, namespaces: readonly Namespace[]): true | Promise<void> {
  const missing = namespaces.filter((ns) => !instance.hasResourceBundle(language, ns));
  if (missing.length === 0 && instance.language === language) return true;
  const key = `${language}:${namespaces.join(',')}`;
  let promise = pending.get(key);
  if (!promise) {
    promise = (async () => {
      if (missing.length > 0) await instance.reloadResources([language], missing);
      const failed = missing.filter((ns) => !instance.hasResourceBundle(language, ns));
      if (failed.length > 0) throw new Error(`texts not available: ${language}/${failed.join(',')}`);
      if (instance.language !== language) await instance.changeLanguage(language);
    })().finally(() => pending.delete(key));
    pending.set(key, promise);
  }
  return promise;
}
