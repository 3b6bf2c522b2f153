import { useTranslation } from 'react-i18next';
import { useFormat, useLanguageName } from '#client/console/format.ts';
import { ConsoleLink } from '#client/console/ui.tsx';
import { consolePath } from '#common/routes.ts';
import { type PagePlaceholders, type StatusCounts, TEXT_STATUSES, type TextStatus } from '#common/site-texts.ts';
import { placeholderTarget } from './text-list.ts';

/** The header cells of the three counts, in the order `CountCells` fills them. */
export function CountHeaders() {
  const { t } = useTranslation('console');
  return TEXT_STATUSES.map((status) => (
    <th key={status} scope="col" className="texts__count">
      {t(`texts.status.${status}`)}
    </th>
  ));
}

/** A row's counts as numbers; one still to do is marked by a class, its number says it all the same. */
export function CountCells({ counts }: { counts: StatusCounts | undefined }) {
  const format = useFormat();
  return TEXT_STATUSES.map((status) => {
    const count = counts?.[status] ?? 0;
    return (
      <td key={status} className={`texts__count${count > 0 && status !== 'done' ? ` texts__count--${status}` : ''}`}>
        {format.number(count)}
      </td>
    );
  });
}

/** A text's state as a word in a badge. */
export function StatusBadge({ status }: { status: TextStatus }) {
  const { t } = useTranslation('console');
  return <span className={`status texts__status--${status}`}>{t(`texts.status.${status}`)}</span>;
}

/** A link to a preview, which opens in a tab of its own; its text says so to a screen reader. */
export function PreviewLink({ href, label }: { href: string; label: string }) {
  const { t } = useTranslation('console');
  return (
    <a href={href} target="_blank" rel="noopener">
      {label}
      <span className="visually-hidden"> {t('texts.preview.newTab')}</span>
      <span aria-hidden="true"> ↗</span>
    </a>
  );
}

/**
 * What pages still show as placeholders, per page and language: each text linked to its group's
 * editor, each fact of config.json named as it is.
 */
export function PlaceholderList({ items }: { items: readonly PagePlaceholders[] }) {
  const { t } = useTranslation('console');
  const languageName = useLanguageName();
  return (
    <ul className="texts__placeholder-list">
      {items.map(({ page, language, keys }) => (
        <li key={`${page}:${language}`}>
          {t('texts.publish.placeholdersOn', { page: t(`texts.pages.${page}`), language: languageName(language) })}{' '}
          {keys.map((name, index) => {
            const target = placeholderTarget(name, language);
            return (
              <span key={name}>
                {index > 0 && ', '}
                {target ? (
                  <ConsoleLink to={consolePath('textsNamespace', { id: target.namespace, query: target.query })}>
                    <code>{name}</code>
                  </ConsoleLink>
                ) : (
                  <code>{name}</code>
                )}
              </span>
            );
          })}
        </li>
      ))}
    </ul>
  );
}
