import { use, useEffect } from 'react';
import { loadedPage, loadPage } from '#client/app/page-modules.ts';
import type { PageId } from '#common/routes.ts';

/** Renders a page, suspending on the first visit until its module has arrived. */
export function Page({ id }: { id: PageId }) {
  const Component = loadedPage(id) ?? use(loadPage(id));
  return (
    <>
      <Component />
      <HydratedMark />
    </>
  );
}

/**
 * Marks the document once the app has taken over the prerendered page, for styles and tests that
 * need to tell the two apart. Beside the page rather than at the app's root: the page sits in a
 * Suspense boundary of its layout, which React hydrates in a pass of its own, after the root's
 * effects. A component of its own: as a hook after `use` in Page, its first render after suspending
 * threw React's "Update hook called on initial render".
 */
function HydratedMark() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return null;
}
