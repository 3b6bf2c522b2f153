import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DRAFTED_TEXTS_API, DRAFTS_QUERY, EDITED_TEXTS_ATTRIBUTE } from '#common/edited-texts.ts';
import { withRetries } from './with-retries.ts';

type Texts = Record<string, unknown>;
/** A `virtual:texts/<namespace>/<part>` module's loaders, one per language (scripts/build/vite-text-parts.ts). */
type Loaders = Record<string, (() => Promise<Texts>) | undefined>;

/** Namespaces read over HTTP, once a page, by address; null where they could not be read. */
const read = new Map<string, Promise<Texts | null>>();
function readOnce(url: string): Promise<Texts | null> {
  let texts = read.get(url);
  if (!texts) {
    texts = fetch(url)
      .then((response) => (response.ok ? (response.json() as Promise<Texts>) : null))
      .catch(() => null);
    read.set(url, texts);
  }
  return texts;
}

/**
 * A namespace's texts where they differ from the release's chunks (decision 235): the editor's
 * drafts when the address asks for them (the console's preview; null for anyone else), else the
 * published texts file when the page names the namespace as published over in `language`. The
 * file is revalidated like every texts file, so it is the one the instances serve now.
 */
async function textsOver(language: string, namespace: string): Promise<Texts | null> {
  if (window.location.search.slice(1).split('&').includes(DRAFTS_QUERY)) {
    const url = `${DRAFTED_TEXTS_API.replace(':namespace', namespace)}?language=${encodeURIComponent(language)}`;
    const drafts = await readOnce(url);
    if (drafts) return drafts;
  }
  const edited = document
    .querySelector(`[${EDITED_TEXTS_ATTRIBUTE}]`)
    ?.getAttribute(EDITED_TEXTS_ATTRIBUTE)
    ?.split(' ');
  return edited?.includes(`${language}/${namespace}`) ? readOnce(`/locales/${language}/${namespace}.json`) : null;
}

/** One part of a namespace's texts: from `textsOver` where it has them, else the release's chunk. */
async function loadPart(loaders: Loaders, language: string, namespace: string, part: string) {
  const over = (await textsOver(language, namespace))?.[part];
  if (over && typeof over === 'object') return over as Texts;
  return loaders[language]?.();
}

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
    withRetries(() => loadPart(loaders, language, namespace, part)).then(
      (texts) => {
        if (!texts) return;
        i18n.addResourceBundle(language, namespace, { [part]: texts }, true, true);
        if (current) setLoaded(language);
      },
      () => {},
    );
    return () => {
      current = false;
    };
  }, [i18n, loaders, language, namespace, part]);
  return loaded;
}
