// Texts published from the console on one instance, served by every instance and by nginx within
// 2 s (issue 34, item 4; decision 201): the Thai home title changed on instance 0 and read on the
// others and through nginx, brotli and plain; its texts file too; a restarted instance keeps it;
// a share image drawn by an instance for a new page title reaches visitors through nginx; a text of
// the French chat, the language's first, reaches the French pages and chat texts file within 2 s,
// and the other languages' pages right after (decision 235).
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { EDITED_TEXTS_ATTRIBUTE } from '#common/edited-texts.ts';
import { TEXTS_API, withNamespace } from '#common/site-texts.ts';
import {
  apiPost,
  BUDGET_MS,
  type Cluster,
  expect,
  type Report,
  readersOf,
  registerAdmin,
  SESSION_COOKIE,
  servedWithin,
  timesLine,
  withinBudget,
} from './checks.ts';
import { type Answer, textOf as html, request } from './http.ts';
import { ROOT, startInstance, stopProcess, waitFor } from './processes.ts';

const PAGE = '/th';
const TEXTS_FILE = '/locales/th/home.json';

/** The page as a browser that takes brotli gets it, and as one that takes no compression. */
async function bothForms(port: number, target: string): Promise<[Answer, Answer]> {
  return Promise.all([
    request(port, target, { headers: { 'Accept-Encoding': 'br, gzip' } }),
    request(port, target, { headers: { 'Accept-Encoding': 'identity' } }),
  ]);
}

/** Whether both forms of the page on `port` carry `text`. */
async function pageCarries(port: number, text: string): Promise<boolean> {
  const [br, plain] = await bothForms(port, PAGE);
  return (
    br.status === 200 &&
    plain.status === 200 &&
    br.headers['content-encoding'] === 'br' &&
    !plain.headers['content-encoding'] &&
    html(br).includes(text) &&
    html(plain).includes(text)
  );
}

/** Publishes drafts of one namespace's texts (the Thai home's unless named) as `session`'s admin on `port`. */
async function publish(
  port: number,
  session: string,
  texts: Record<string, string>,
  { namespace, language } = { namespace: 'home', language: 'th' },
) {
  const cookies = { [SESSION_COOKIE]: session };
  for (const [key, value] of Object.entries(texts)) {
    const saved = await apiPost(
      port,
      withNamespace(TEXTS_API.draft, namespace),
      { language, key, value },
      cookies,
      'PUT',
    );
    expect(saved.status === 200, `the draft of ${namespace}:${key} answered ${saved.status}: ${html(saved)}`);
  }
  // The release's stand-in texts are still on the page: publishing them is confirmed.
  const started = performance.now();
  const published = await apiPost(port, TEXTS_API.publish, { confirmPlaceholders: true }, cookies);
  expect(published.status === 200, `publishing answered ${published.status}: ${html(published)}`);
  return { started, answeredMs: performance.now() - started };
}

export async function publishedTextsEverywhere(cluster: Cluster, report: Report) {
  const [first] = cluster.instances;
  expect(first, 'no instance 0');
  const session = await registerAdmin(cluster, first.port);

  const readers = readersOf(cluster);
  const etags = async (target: string) =>
    Promise.all(readers.map(async ({ port }) => (await request(port, target)).headers.etag));
  const pageTagsBefore = await etags(PAGE);
  const textsTagsBefore = await etags(TEXTS_FILE);

  const marker = `ทดสอบ ${randomBytes(4).toString('hex')}`;
  const title = `${marker} {{siteName}}`;
  const { started, answeredMs } = await publish(first.port, session, { 'hero.title': title });
  const times = await servedWithin(readers, (port) => pageCarries(port, marker), started);
  report.note(
    `the Thai home title published on instance 0, the first publish since they started (each loads the renderer), answered in ${Math.round(answeredMs)} ms; ${PAGE} with it (br and plain): ${timesLine(times)}`,
  );
  expect(withinBudget(times), `not every reader served the new title within ${BUDGET_MS} ms`);
  // nginx passes each request to any instance: once they all have it, every answer carries it.
  for (let i = 0; i < 9; i++) {
    const [br, plain] = await bothForms(cluster.nginx.port, PAGE);
    expect(html(br).includes(marker) && html(plain).includes(marker), 'nginx served the old title after the new one');
  }

  const pageTagsAfter = await etags(PAGE);
  const textsTagsAfter = await etags(TEXTS_FILE);
  for (const [i, { name, port }] of readers.entries()) {
    expect(pageTagsAfter[i] && pageTagsAfter[i] !== pageTagsBefore[i], `${name}: the ETag of ${PAGE} did not change`);
    expect(
      textsTagsAfter[i] && textsTagsAfter[i] !== textsTagsBefore[i],
      `${name}: the ETag of ${TEXTS_FILE} did not change`,
    );
    const texts = JSON.parse((await request(port, TEXTS_FILE)).body.toString('utf8')) as { hero?: { title?: string } };
    expect(texts.hero?.title === title, `${name}: ${TEXTS_FILE} says ${JSON.stringify(texts.hero?.title)}`);
  }
  report.note(
    `${TEXTS_FILE} has the new text and both it and ${PAGE} have new ETags, on instances 1 and 2 and through nginx`,
  );

  // A new page title draws a new share image, in the instances' memory only: nginx asks them for it.
  const { started: again } = await publish(first.port, session, { 'meta.title': `${marker}: {{siteName}}` });
  const images = await Promise.all(
    cluster.instances.map((instance) =>
      waitFor(
        `instance ${instance.index} serving the page with the new title`,
        async () => {
          const page = html(await request(instance.port, PAGE));
          const url = page.match(/<meta property="og:image" content="([^"]+)"/)?.[1];
          return url && page.includes(`<title>${marker}`) ? new URL(url).pathname : undefined;
        },
        { timeoutMs: 10_000, intervalMs: 20 },
      ),
    ),
  );
  const imageMs = performance.now() - again;
  const [image] = images;
  expect(
    image && images.every((each) => each === image),
    `the instances name different share images: ${images.join(', ')}`,
  );
  expect(!existsSync(path.join(ROOT, 'dist/client', image)), `${image} is in the build: the check proves nothing`);
  // Each instance draws it on its first request for it (decision 200), and nginx, asking
  // whichever, passes it on.
  for (const instance of cluster.instances) {
    const drawn = await request(instance.port, image);
    expect(drawn.status === 200, `instance ${instance.index} answered ${drawn.status} for ${image}`);
  }
  for (let i = 0; i < 3; i++) {
    const picture = await request(cluster.nginx.port, image);
    expect(
      picture.status === 200 && picture.headers['content-type'] === 'image/png' && picture.body.length > 1_000,
      `${image} through nginx: ${picture.status} ${picture.headers['content-type']}`,
    );
  }
  report.note(
    `a new page title: every instance served it within ${Math.round(imageMs)} ms, with a share image each drew when asked (${image}), which nginx passes on from them`,
  );

  // The French chat's first edited text: the French pages name it, and the chat reads its file.
  const chatTitle = `Parlons-en ${marker}`;
  const { started: chatStarted } = await publish(
    first.port,
    session,
    { 'panel.title': chatTitle },
    { namespace: 'chat', language: 'fr' },
  );
  const named = (page: string) => page.includes(`${EDITED_TEXTS_ATTRIBUTE}="fr/chat"`);
  const chatTimes = await servedWithin(
    readers,
    async (port) => {
      const [page, file] = await Promise.all([request(port, '/fr/about'), request(port, '/locales/fr/chat.json')]);
      const texts = JSON.parse(file.body.toString('utf8')) as { panel?: { title?: string } };
      return named(html(page)) && texts.panel?.title === chatTitle;
    },
    chatStarted,
  );
  report.note(
    `the French chat's first edited text: /fr/about naming it and /locales/fr/chat.json with it: ${timesLine(chatTimes)}`,
  );
  expect(withinBudget(chatTimes), `not every reader served the French chat's text within ${BUDGET_MS} ms`);
  // A visitor who starts in German and switches to French reads it too: the other languages' pages follow.
  await Promise.all(
    readers.map(({ name, port }) =>
      waitFor(
        `${name} naming the French chat on /de/about`,
        async () => named(html(await request(port, '/de/about'))) || undefined,
        {
          timeoutMs: 15_000,
          intervalMs: 50,
        },
      ),
    ),
  );
  report.note(`the other languages' pages name the French chat as well (/de/about), on every reader`);

  // A restarted instance serves what was published from the start.
  const restarted = cluster.instances[2];
  expect(restarted, 'no instance 2');
  await stopProcess(restarted.process, 'SIGTERM', 15_000);
  cluster.instances[2] = await startInstance(2, restarted.port, cluster.folder, cluster.instanceEnv);
  const [br, plain] = await bothForms(restarted.port, PAGE);
  const texts = JSON.parse((await request(restarted.port, TEXTS_FILE)).body.toString('utf8')) as {
    hero?: { title?: string };
  };
  expect(
    html(br).includes(marker) && html(plain).includes(marker) && texts.hero?.title === title,
    'instance 2, restarted, serves the old title',
  );
  report.note('instance 2 restarted: its first answers carry the published title, page and texts file');
}
