import { use } from 'react';
import { loadedPage, loadPage } from '#client/app/page-modules.ts';
import type { PageId } from '#common/routes.ts';

/** Renders a page, suspending on the first visit until its module has arrived. */
export function Page({ id }: { id: PageId }) {
  const Component = loadedPage(id) ?? use(loadPage(id));
  return <Component />;
}
