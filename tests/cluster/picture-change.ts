// A picture's text changed in the console while visitors ask for pages (decisions 203, 204): every
// page carries the pictures in its configuration script, for the app's moves between pages, yet the
// picture's own pages reach every instance and nginx within issue 34's 2 s; the other pages follow
// right after, and each page served meanwhile can run its own inline code.
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

/** A page that shows no picture: it names them in its configuration script only. */
const OTHER_PAGE = '/nl/imprint';

export async function pictureChangeReachesItsPagesFirst(cluster: Cluster, report: Report) {
  const [first, second] = cluster.instances;
  expect(first && second, 'fewer than two instances');
  const session = await registerAdmin(cluster, first.port);
  const cookies = { [SESSION_COOKIE]: session };
  const everywhere = (what: string, carries: (page: string) => boolean) =>
    Promise.all(
      cluster.instances.map(({ port }) =>
        waitFor(
          `the instance on ${port} serving ${OTHER_PAGE} ${what}`,
          async () => {
            const page = await request(port, OTHER_PAGE);
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
  const before = configHash(await request(second.port, OTHER_PAGE));
  const started = performance.now();
  const changed = apiPost(first.port, PICTURES_API.alt('about'), { alt: { en: alt } }, cookies, 'PUT', 60_000);
  const times = await servedWithin(
    readers,
    async (port) => html(await request(port, '/en/about')).includes(`alt="${alt}"`),
    started,
  );
  report.note(`the about picture's English text set on instance 0; /en/about showing it: ${timesLine(times)}`);
  expect(withinBudget(times), `not every reader served /en/about with the new text within ${BUDGET_MS} ms`);

  // Instance 1 renders the other pages now, or has: each is asked for once.
  let old = 0;
  const refused: string[] = [];
  for (const { path } of allPagePaths()) {
    const page = await request(second.port, path, { headers: { 'Accept-Encoding': 'br' } });
    expect(page.status === 200, `${path} answered ${page.status}`);
    if (!html(page).includes(alt)) old++;
    refused.push(...refusedInline(page).map((what) => `${path}: ${what}`));
  }
  const answer = await changed;
  expect(answer.status === 200, `setting the text answered ${answer.status}`);
  report.note(
    `instance 1 then served ${old} pages still without the text in their configuration; inline code their own ` +
      `policy refused: ${refused.length === 0 ? 'none' : refused.slice(0, 3).join(', ')}`,
  );
  expect(refused.length === 0, `${refused.length} inline scripts or styles were refused by their page's own policy`);

  const [, now] = await everywhere('naming the new text', (page) => page.includes(alt));
  expect(now && refusedInline(now).length === 0, `${OTHER_PAGE}: its policy refuses its own inline code`);
  expect(
    before && !String(now?.headers['content-security-policy']).includes(before),
    'the policy still allows the old configuration script once every page is new',
  );
  report.note(`${OTHER_PAGE} followed on every instance; the old configuration script's hash left the policy`);

  const removed = await apiPost(first.port, PICTURES_API.picture('about'), {}, cookies, 'DELETE', 60_000);
  expect(removed.status === 200, `taking the picture off answered ${removed.status}: ${html(removed)}`);
  await everywhere('without the picture', (page) => !page.includes(src));
}
