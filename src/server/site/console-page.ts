import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { FAVICON_LINK } from '#common/head.ts';
import { escapeHtml } from '#common/html.ts';
import { LANGUAGES, type Texts } from '#common/languages.ts';
import { type Manifest, moduleClosure } from './app-modules.ts';

const CONSOLE_ENTRY = 'src/client/console/entry.tsx';

/**
 * The operator console's page: no content of its own (the console is an app for signed-in staff,
 * never prerendered, never indexed), its stylesheet and script from the console's own build, and a
 * line for browsers without JavaScript in every language. The site configuration comes as on every
 * page, in the script whose hash the Content-Security-Policy already allows.
 */
export async function consolePage(
  siteDir: string,
  texts: Texts,
  siteName: string,
  configScript: string,
): Promise<string> {
  const manifest = JSON.parse(
    await readFile(path.join(siteDir, 'client/.vite/console-manifest.json'), 'utf8'),
  ) as Manifest;
  const entry = manifest[CONSOLE_ENTRY];
  if (!entry) throw new Error(`${CONSOLE_ENTRY} is missing from the console's manifest`);
  const closure = [...moduleClosure(manifest, CONSOLE_ENTRY)];
  const styles = closure.flatMap((key) => manifest[key]?.css ?? []);
  const preloads = closure.filter((key) => key !== CONSOLE_ENTRY).map((key) => manifest[key]?.file);
  const noScript = LANGUAGES.map(
    (language) =>
      `<p lang="${language}">${String((texts[language]?.console as Record<string, unknown>)?.noscript ?? '')}</p>`,
  ).join('\n');
  const title = String((texts.en?.console as Record<string, unknown>)?.title ?? 'Console');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(`${title} – ${siteName}`)}</title>
${FAVICON_LINK}
${styles.map((file) => `<link rel="stylesheet" href="/${file}">`).join('\n')}
${preloads.map((file) => `<link rel="modulepreload" href="/${file}">`).join('\n')}
<script>${configScript}</script>
<script type="module" src="/${entry.file}"></script>
</head>
<body>
<div id="console"></div>
<noscript>
${noScript}
</noscript>
</body>
</html>
`;
}
