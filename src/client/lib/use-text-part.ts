import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** A `virtual:texts/<namespace>/<part>` module's loaders, one per language (scripts/build/vite-text-parts.ts). */
type Loaders = Record<string, (() => Promise<Record<string, unknown>>) | undefined>;

/**
 * Fetches one part of a namespace's texts for `language` and adds it to i18next under `part`.
 * Answers the language once its texts are there, null until then; the caller takes its `t` with
 * `i18n.getFixedT(language, namespace, part)`, which keeps the keys typed.
 */
export function useTextPart(loaders: Loaders, language: string, namespace: string, part: string): string | null {
  const { i18n } = useTranslation();
  const [loaded, setLoaded] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    void loaders[language]?.().then((texts) => {
      i18n.addResourceBundle(language, namespace, { [part]: texts }, true, true);
      if (current) setLoaded(language);
    });
    return () => {
      current = false;
    };
  }, [i18n, loaders, language, namespace, part]);
  return loaded;
}
