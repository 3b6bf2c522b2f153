// A brand colour set in the console while visitors ask for pages (decision 203): every page an
// instance serves, during the change and after, carries a security policy that lets its own inline
// script and style run (decision 250). The check asks another instance for its pages, again and
// again, while it renders the new ones.
import { allPagePaths } from '#common/routes.ts';
import { BRAND_API } from '#common/site-brand.ts';
import { hashOf, refusedInline as refusedBy } from '#tests/support/inline-code.ts';
import {
  apiPost,
  type Cluster,
  expect,
  type Report,
  readersOf,
  registerAdmin,
  SESSION_COOKIE,
  servedWithin,
  timesLine,
} from './checks.ts';
import { type Answer, request, textOf } from './http.ts';
import { waitFor } from './processes.ts';

const FIRST_ACCENT = '#7c2d12';
const ACCENT = '#0f766e';

/** The hash of the configuration script a page carries. */
export function configHash(page: Answer): string | undefined {
  const script = textOf(page).match(/<script>(window\.__SITE_CONFIG__=[\s\S]*?)<\/script>/)?.[1];
  return script && hashOf(script);
}

/** The inline scripts (not data blocks) and styles of a page that its policy does not allow. */
export const refusedInline = (page: Answer): string[] =>
  refusedBy(textOf(page), String(page.headers['content-security-policy'] ?? ''));

export async function brandChangeKeepsPagesRunning(cluster: Cluster, report: Report) {
  const [first, second] = cluster.instances;
  expect(first && second, 'fewer than two instances');
  const session = await registerAdmin(cluster, first.port);
  // The change answers once instance 0 serves every page again: seconds while all three render.
  const setAccent = (accent: string | null) =>
    apiPost(
      first.port,
      BRAND_API.brand,
      { appearance: accent && { accent } },
      { [SESSION_COOKIE]: session },
      'PUT',
      60_000,
    );
  const servedIn = (port: number, accent: string) =>
    waitFor(
      `the instance on ${port} serving /nl/imprint in ${accent}`,
      async () => {
        const page = await request(port, '/nl/imprint');
        return textOf(page).includes(accent) ? page : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 50 },
    );

  // A first brand colour, so that the pages served carry a configuration the build's hashes do not
  // name. Every page of instance 1 is a new file then, which it has not served yet (but one).
  expect((await setAccent(FIRST_ACCENT)).status === 200, 'the first brand colour was refused');
  await servedIn(second.port, FIRST_ACCENT);

  // The second colour, set on instance 0. Instance 1 hears of it and renders every page again.
  // Meanwhile and after, each of its pages is asked for in turn, pass after pass, until a whole
  // pass serves the new colour.
  const changed = setAccent(ACCENT).catch((error: Error) => error);
  const pages = allPagePaths();
  const deadline = performance.now() + 30_000;
  let old = 0;
  let branded = 0;
  let firstOld: Answer | undefined;
  const refused: string[] = [];
  for (let passBranded = 0; passBranded < pages.length; ) {
    expect(performance.now() < deadline, 'instance 1 did not serve every page in the new colour within 30 s');
    passBranded = 0;
    for (const { path } of pages) {
      const page = await request(second.port, path, { headers: { 'Accept-Encoding': 'br' } });
      expect(page.status === 200, `${path} answered ${page.status}`);
      if (textOf(page).includes(ACCENT)) passBranded++;
      else {
        old++;
        firstOld ??= page;
      }
      refused.push(...refusedInline(page).map((what) => `${path}: ${what}`));
    }
    branded += passBranded;
  }
  const answer = await changed;
  expect(!(answer instanceof Error) && answer.status === 200, `the second brand colour: ${String(answer)}`);
  report.note(
    `instance 1 served ${old} pages in the old colour while the change went on and ${branded} in the new; ` +
      `inline code their own policy refused: ${refused.length === 0 ? 'none' : refused.slice(0, 3).join(', ')}`,
  );
  expect(refused.length === 0, `${refused.length} inline scripts or styles were refused by their page's own policy`);

  // Once instance 1 serves the new pages, its policy no longer names the old configuration script.
  expect(firstOld, 'instance 1 served no page in the old colour: the check saw no change under way');
  const before = configHash(firstOld);
  const now = await servedIn(second.port, ACCENT);
  expect(refusedInline(now).length === 0, '/nl/imprint: its policy refuses its own inline code');
  expect(before && configHash(now) !== before, 'the configuration script did not change with the brand');
  expect(
    !String(now.headers['content-security-policy']).includes(before ?? ''),
    'the policy still allows the old configuration script once every page is new',
  );
  report.note('afterwards its policy allows the new configuration script and no longer the old one');
  // Taken back: how long until every reader serves a page without it.
  const readers = readersOf(cluster);
  const started = performance.now();
  const takenBack = setAccent(null);
  const times = await servedWithin(
    readers,
    async (port) => !textOf(await request(port, '/nl/imprint')).includes(ACCENT),
    started,
  );
  expect((await takenBack).status === 200, 'the brand colour could not be taken back');
  report.note(
    `the colour taken back answered in ${Math.round(performance.now() - started)} ms; /nl/imprint without it: ${timesLine(times)}`,
  );
}
