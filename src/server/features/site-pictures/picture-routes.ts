import { LANGUAGES } from '#common/languages.ts';
import { EDITOR_ROLES } from '#common/roles.ts';
import {
  MAX_PICTURE_ALT,
  PICTURE_SLOTS,
  PICTURE_TYPES,
  PICTURES_API,
  type PictureSlot,
  type PicturesAnswer,
} from '#common/site-pictures.ts';
import { z } from '#common/zod.ts';
import type { Deps } from '#server/deps.ts';
import { requireStaff } from '#server/features/accounts/index.ts';
import { ApiError } from '#server/http/api-error.ts';
import { newRoutes } from '#server/http/context.ts';
import { jsonBody, maxBody } from '#server/http/json-body.ts';
import { makePicture } from './picture-files.ts';
import { deletePicture, savePicture, savePictureAlt } from './picture-queries.ts';

const AltSchema = z.strictObject({
  alt: z.partialRecord(z.enum(LANGUAGES), z.string().check(z.trim(), z.maxLength(MAX_PICTURE_ALT))),
});
const NothingSchema = z.strictObject({});
/** The JSON routes under the pictures' exemption keep a JSON body's size. */
const smallBody = maxBody(16 * 1024);

const slotOf = (value: string): PictureSlot => {
  if (!(PICTURE_SLOTS as readonly string[]).includes(value)) throw new ApiError(404, 'NOT_FOUND');
  return value as PictureSlot;
};

/**
 * The pictures as the pages show them, for anyone. The pages' pictures in the console, for
 * editors and admins (they are content, like the texts):
 * upload one (made into the files the pages serve before the answer), set its texts, take it off.
 * Each change is served by this instance before the answer, by every other within moments
 * (SiteBrand renders the site again with the configuration in force).
 */
export function pictureRoutes(deps: Deps) {
  const { db, siteBrand } = deps;
  const routes = newRoutes();
  const editors = requireStaff(deps, EDITOR_ROLES);
  const answer = (): PicturesAnswer => ({ pictures: siteBrand.site.appearance?.pictures ?? {} });

  // For anyone: the app going to a page whose picture the page it started on did not carry (decision 251).
  routes.get(PICTURES_API.shown, (c) => c.json(answer()));

  routes.get(PICTURES_API.pictures, editors, async (c) => {
    await siteBrand.refresh();
    return c.json(answer());
  });

  routes.put('/api/console/pictures/:slot', editors, async (c) => {
    const slot = slotOf(c.req.param('slot'));
    const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    if (!(PICTURE_TYPES as readonly string[]).includes(type)) throw new ApiError(400, 'PICTURE_NOT_IMAGE');
    const body = new Uint8Array(await c.req.arrayBuffer());
    const made = await makePicture(body);
    if ('problem' in made) throw new ApiError(made.status, made.problem);
    await db.transaction((tx) => savePicture(tx, slot, body, made, c.var.staff.accountId));
    await siteBrand.refresh();
    return c.json(answer());
  });

  routes.put('/api/console/pictures/:slot/alt', editors, smallBody, jsonBody(AltSchema), async (c) => {
    const slot = slotOf(c.req.param('slot'));
    const alt = Object.fromEntries(Object.entries(c.req.valid('json').alt).filter(([, text]) => text));
    const saved = await db.transaction((tx) => savePictureAlt(tx, slot, alt, c.var.staff.accountId));
    if (!saved) throw new ApiError(404, 'NOT_FOUND');
    await siteBrand.refresh();
    return c.json(answer());
  });

  routes.delete('/api/console/pictures/:slot', editors, smallBody, jsonBody(NothingSchema), async (c) => {
    const slot = slotOf(c.req.param('slot'));
    await db.transaction((tx) => deletePicture(tx, slot));
    await siteBrand.refresh();
    return c.json(answer());
  });

  return routes;
}
