import { type ReactNode, type RefObject, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '#client/lib/address.tsx';
import { formatDate } from '#client/lib/formats.ts';
import { LEGAL_TEXTS_UPDATED } from '#common/legal-facts.ts';
import './legal.css';

/**
 * The shape every legal page shares: title, the date of the last change (one date for all of
 * them, written the language's way), lead, then its sections.
 */
export function LegalArticle(props: {
  title: string;
  lead: string;
  dated?: boolean;
  /** Long enough that its far sections are laid out only near the screen, in Thai (legal.css, decision 091). */
  long?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation('legal');
  const lang = useLanguage();
  const article = useRef<HTMLElement>(null);
  useFarSectionsLaidOut(article, props.long === true);
  return (
    <article ref={article} className={props.long ? 'container page legal legal--long' : 'container page legal'}>
      <h1>{props.title}</h1>
      {props.dated !== false && (
        <p className="legal__updated">{t('updated', { date: formatDate(lang, LEGAL_TEXTS_UPDATED) })}</p>
      )}
      <p className="lead">{props.lead}</p>
      {props.children}
    </article>
  );
}

/**
 * Lays out the sections legal.css leaves out of a long text's first layout, one per idle moment
 * once the page runs, so that a later jump (the End key, a scrollbar drag) lands on their real
 * heights rather than on estimates (decision 091).
 */
function useFarSectionsLaidOut(article: RefObject<HTMLElement | null>, long: boolean) {
  useEffect(() => {
    if (!long) return;
    // Every section, whatever the language: the mark changes nothing where the rule does not
    // apply, and the page may later switch to Thai in place.
    const sections = [...(article.current?.querySelectorAll<HTMLElement>(':scope > section') ?? [])];
    let cancel = () => {};
    const whenIdle = (callback: () => void) => {
      if ('requestIdleCallback' in window) {
        const handle = requestIdleCallback(callback);
        cancel = () => cancelIdleCallback(handle);
      } else {
        const timer = setTimeout(callback, 100);
        cancel = () => clearTimeout(timer);
      }
    };
    const next = () => {
      const section = sections.shift();
      if (!section) return;
      section.dataset.laidOut = '';
      whenIdle(next);
    };
    whenIdle(next);
    return () => cancel();
  }, [article, long]);
}

/** A titled section of a legal page; its id is the anchor other pages link to. */
export function LegalSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`section-${id}`}>
      <h2 id={`section-${id}`}>{title}</h2>
      {children}
    </section>
  );
}
