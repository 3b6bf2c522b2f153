/**
 * Where to go once signed in, when the console sent the visitor to sign in first (`?next=/console…`).
 * Only paths of the console are taken: anything else in the address could send someone who has
 * just signed in to another site.
 */
export function returnPath(search: string): string | null {
  const next = new URLSearchParams(search).get('next');
  return next && /^\/console(\/[A-Za-z0-9-]+)*$/.test(next) ? next : null;
}
