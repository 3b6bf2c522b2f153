// A picture's text changed in the console while visitors ask for pages (decisions 204, 251): only
// the picture's own pages carry it, so only they are rendered again, and they reach every instance
// and nginx within issue 34's 2 s; the other pages stay as they were, and each page served can run
// its own inline code.
import { randomBytes } from 'node:crypto';
import { allPagePaths } from '#common/routes.ts';
import { PICTURES_API, type PicturesAnswer } from '#common/site-pictures.ts';
import { testPhoto } from '#tests/support/pictures.ts';
import { configHash, refusedInline } from './brand-change.ts';
import {
  apiPost,
  BUDGET_MS,
  type Cluster,
  expect,
  origin,
  type Report,
  readersOf,
  registerAdmin,
  SESSION_COOKIE,
  servedWithin,
  timesLine,
  withinBudget,
} from './checks.ts';
import { textOf as html, json, request } from './http.ts';
import { waitFor } from './processes.ts';

/** A page that shows no picture, and carries none. */
const OTHER_PAGE = '/nl/imprint';
/** The about picture's own page. */
const OWN_PAGE = '/en/about';

export async function pictureChangeReachesItsPagesFirst(cluster: Cluster, report: Report) {
  const [first, second] = cluster.instances;
  expect(first && second, 'fewer than two instances');
  const session = await registerAdmin(cluster, first.port);
  const cookies = { [SESSION_COOKIE]: session };
  const everywhere = (what: string, carries: (page: string) => boolean) =>
    Promise.all(
      cluster.instances.map(({ port }) =>
        waitFor(
          `the instance on ${port} serving ${OWN_PAGE} ${what}`,
          async () => {
            const page = await request(port, OWN_PAGE);
            return carries(html(page)) ? page : undefined;
          },
          { timeoutMs: 60_000, intervalMs: 100 },
        ),
      ),
    );

  const uploaded = await request(first.port, PICTURES_API.picture('about'), {
    method: 'PUT',
    body: Buffer.from(await testPhoto({ width: 1000, height: 600 })),
    headers: { 'Content-Type': 'image/jpeg', Origin: origin(first.port), Cookie: `${SESSION_COOKIE}=${session}` },
    timeoutMs: 60_000,
  });
  expect(uploaded.status === 200, `the upload answered ${uploaded.status}: ${html(uploaded).slice(0, 200)}`);
  const src = json<PicturesAnswer>(uploaded).pictures.about?.src;
  expect(src, 'the upload answered no picture for about');
  await everywhere('naming the new picture', (page) => page.includes(src));

  // The text, set on instance 0, while instance 1 is watched.
  const readers = readersOf(cluster);
  const alt = `A bakery at dawn ${randomBytes(4).toString('hex')}`;
  const otherBefore = await request(second.port, OTHER_PAGE);
  const started = performance.now();
  const changed = apiPost(first.port, PICTURES_API.alt('about'), { alt: { en: alt } }, cookies, 'PUT', 60_000);
  const times = await servedWithin(
    readers,
    async (port) => html(await request(port, OWN_PAGE)).includes(`alt="${alt}"`),
    started,
  );
  report.note(`the about picture's English text set on instance 0; ${OWN_PAGE} showing it: ${timesLine(times)}`);
  expect(withinBudget(times), `not every reader served ${OWN_PAGE} with the new text within ${BUDGET_MS} ms`);

  // Every page of instance 1, asked for once: the picture's own pages name it, no other page does.
  const carrying: string[] = [];
  const refused: string[] = [];
  for (const { path, page: id } of allPagePaths()) {
    const page = await request(second.port, path, { headers: { 'Accept-Encoding': 'br' } });
    expect(page.status === 200, `${path} answered ${page.status}`);
    if (id !== 'about' && html(page).includes(src)) carrying.push(path);
    refused.push(...refusedInline(page).map((what) => `${path}: ${what}`));
  }
  const answer = await changed;
  expect(answer.status === 200, `setting the text answered ${answer.status}`);
  report.note(
    `instance 1: pages other than about carrying the picture: ${carrying.length === 0 ? 'none' : carrying.slice(0, 3).join(', ')}; ` +
      `inline code their own policy refused: ${refused.length === 0 ? 'none' : refused.slice(0, 3).join(', ')}`,
  );
  expect(carrying.length === 0, `${carrying.length} pages that do not show the picture carry it`);
  expect(refused.length === 0, `${refused.length} inline scripts or styles were refused by their page's own policy`);

  // The other pages were not rendered again: the same file, with the same validator.
  const otherAfter = await request(second.port, OTHER_PAGE);
  expect(
    otherAfter.headers.etag === otherBefore.headers.etag && configHash(otherAfter) === configHash(otherBefore),
    `${OTHER_PAGE} changed with a picture it does not show`,
  );
  report.note(`${OTHER_PAGE} stayed as it was (the same ETag)`);

  const removed = await apiPost(first.port, PICTURES_API.picture('about'), {}, cookies, 'DELETE', 60_000);
  expect(removed.status === 200, `taking the picture off answered ${removed.status}: ${html(removed)}`);
  await everywhere('without the picture', (page) => !page.includes(src));
}
