import type { PageId } from '#common/routes.ts';
import {
  PICTURES_API,
  type Picture,
  type PictureSlot,
  type PicturesAnswer,
  pictureShownOn,
  type SitePictures,
} from '#common/site-pictures.ts';
import { useSiteConfig } from './site-config.tsx';

/**
 * The pages' pictures in the browser (decision 251). A page's configuration carries the picture it
 * shows and no other; when the app goes to a page whose picture the page it started on did not
 * carry, it asks the server for the pictures in force before it shows that page, as it waits for
 * the page's texts.
 */

/** How long a move to a page waits for its picture before the page shows without it. */
const WAIT_MS = 3_000;

/** The picture of the page the browser loaded; undefined before the app starts (the server's render). */
let startedWith: { slot: PictureSlot | undefined } | undefined;
/** The pictures as the server has them, once asked for. */
let inForce: SitePictures | undefined;
/** Asking, by navigation: one request for every render of a move, a new one on the next move after a failure. */
const attempts = new Map<string, Promise<void>>();

/** The app starts on `page`: the configuration it carries has that page's picture. */
export function startPictures(page: PageId | undefined): void {
  startedWith = { slot: page && pictureShownOn(page) };
}

/**
 * True when `page` can show its picture (or shows none); otherwise the promise of asking for it,
 * the same one for every render of one navigation (`attempt`). It never fails: without an
 * answer in time the page shows without its picture, and the next move asks again.
 */
export function pictureReady(page: PageId, attempt: string): true | Promise<void> {
  const slot = pictureShownOn(page);
  if (!slot || !startedWith || slot === startedWith.slot || inForce) return true;
  let asking = attempts.get(attempt);
  if (!asking) {
    asking = fetch(PICTURES_API.shown, { signal: AbortSignal.timeout(WAIT_MS) })
      .then((response) => (response.ok ? (response.json() as Promise<PicturesAnswer>) : null))
      .then(
        (answer) => {
          if (answer) inForce = answer.pictures;
        },
        () => {},
      );
    attempts.set(attempt, asking);
  }
  return asking;
}

/** The picture a page shows in `slot`, if it has one. */
export function usePicture(slot: PictureSlot): Picture | undefined {
  const carried = useSiteConfig().appearance?.pictures?.[slot];
  return inForce ? inForce[slot] : carried;
}
