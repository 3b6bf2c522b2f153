import type { ReactNode } from 'react';

export interface LegalSection {
  id: string;
  title: string;
  text: string;
}

/** The shape every legal page shares: title, date of the last change, lead, then numbered sections. */
export function LegalArticle(props: {
  title: string;
  updated: string;
  lead: string;
  sections: LegalSection[];
  children?: ReactNode;
}) {
  return (
    <article className="container page legal">
      <h1>{props.title}</h1>
      <p className="legal__updated">{props.updated}</p>
      <p className="lead">{props.lead}</p>
      {props.children}
      {props.sections.map((section) => (
        <section key={section.id} aria-labelledby={`section-${section.id}`}>
          <h2 id={`section-${section.id}`}>{section.title}</h2>
          <p>{section.text}</p>
        </section>
      ))}
    </article>
  );
}
