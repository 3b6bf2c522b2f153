import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '#client/lib/address.tsx';
import { formatDate } from '#client/lib/formats.ts';
import { LEGAL_TEXTS_UPDATED } from '#common/legal-facts.ts';

/**
 * The shape every legal page shares: title, the date of the last change (one date for all of
 * them, written the language's way), lead, then its sections.
 */
export function LegalArticle(props: { title: string; lead: string; dated?: boolean; children: ReactNode }) {
  const { t } = useTranslation('legal');
  const lang = useLanguage();
  return (
    <article className="container page legal">
      <h1>{props.title}</h1>
      {props.dated !== false && (
        <p className="legal__updated">{t('updated', { date: formatDate(lang, LEGAL_TEXTS_UPDATED) })}</p>
      )}
      <p className="lead">{props.lead}</p>
      {props.children}
    </article>
  );
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
