import { type ReactNode, useId } from 'react';

/**
 * A table that scrolls sideways on a narrow screen inside a region named by its caption, which
 * takes keyboard focus so that the scrolling works without a mouse (the legal pages' tables do the same).
 */
export function ScrollTable({
  caption,
  className,
  tableClassName,
  children,
}: {
  caption: string;
  className?: string;
  tableClassName?: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls on narrow screens must be reachable by keyboard
    <section className={className ? `table-scroll ${className}` : 'table-scroll'} aria-labelledby={id} tabIndex={0}>
      <table className={tableClassName}>
        <caption id={id}>{caption}</caption>
        {children}
      </table>
    </section>
  );
}
