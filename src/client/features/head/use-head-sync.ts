import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useAddress } from '#client/lib/address.tsx';
import { useSiteConfig } from '#client/lib/site-config.tsx';
import type { Language } from '#common/languages.ts';
import type { PageId } from '#common/routes.ts';
import { pageHead } from './page-head.ts';

function setLink(selector: string, attributes: Record<string, string>) {
  let link = document.head.querySelector<HTMLLinkElement>(selector);
  if (!link) {
    link = document.createElement('link');
    document.head.append(link);
  }
  for (const [name, value] of Object.entries(attributes))
    if (link.getAttribute(name) !== value) link.setAttribute(name, value);
}

/**
 * Keeps <html lang dir>, the title, the description and the head links in step with the page after
 * client-side navigation. On the first render they already match what the prerender wrote, except
 * that alternates now keep the query and hash of the address.
 */
export function useHeadSync(match: { language: Language; page: PageId } | null) {
  const { i18n } = useTranslation();
  const { siteUrl } = useSiteConfig();
  const { pathname, search, hash } = useAddress();
  const language = match?.language;
  const page = match?.page;

  useEffect(() => {
    if (!language || !page) return;
    const head = pageHead(i18n, page, language, siteUrl, { pathname, search, hash });
    // Only what differs is written: setting <html lang> even to the same value makes the browser
    // restyle the whole document (decision 088).
    const root = document.documentElement;
    if (root.lang !== head.language) root.lang = head.language;
    if (root.dir !== head.dir) root.dir = head.dir;
    if (document.title !== head.title) document.title = head.title;
    const description = document.head.querySelector('meta[name="description"]');
    if (description && description.getAttribute('content') !== head.description)
      description.setAttribute('content', head.description);
    const robots = document.head.querySelector('meta[name="robots"]');
    if (head.indexed) robots?.remove();
    else if (!robots) {
      const meta = document.createElement('meta');
      meta.name = 'robots';
      meta.content = 'noindex';
      if (description) description.after(meta);
      else document.head.append(meta);
    }
    for (const link of head.links) {
      if (link.rel === 'canonical') setLink('link[rel="canonical"]', { rel: 'canonical', href: link.href });
      else
        setLink(`link[rel="alternate"][hreflang="${link.hreflang}"]`, {
          rel: 'alternate',
          hreflang: link.hreflang ?? '',
          href: link.href,
        });
    }
  }, [i18n, page, language, siteUrl, pathname, search, hash]);
}
