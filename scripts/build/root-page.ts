// The root page, `/`, which has no language of its own: written by the build (prerender.ts) and
// rendered on each request by the development server (dev.ts).

import path from 'node:path';
import { build } from 'vite';
import { FAVICON_LINK } from '#common/head.ts';
import { ROOT } from '#server/platform/site-config.ts';
import { moduleSideEffects } from './tree-shaking.ts';

/** The root page: an inline script picks the language; without JavaScript the visitor gets links. */
export async function rootPage(css: string): Promise<{ html: string; script: string }> {
  const result = await build({
    configFile: false,
    logLevel: 'warn',
    build: {
      write: false,
      minify: true,
      lib: { entry: path.join(ROOT, 'src/client/root/choose-language.ts'), formats: ['iife'], name: 'chooseLanguage' },
      rollupOptions: { treeshake: { moduleSideEffects } },
    },
  });
  const output = (Array.isArray(result) ? result[0] : result) as { output: { code: string }[] };
  const script = (output.output[0]?.code ?? '').trim();
  const { LANGUAGE_NAMES, LANGUAGES } = await import('#common/languages.ts');
  const links = LANGUAGES.map(
    (l) => `<li><a href="/${l}" lang="${l}" hreflang="${l}">${LANGUAGE_NAMES[l]}</a></li>`,
  ).join('');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Choose your language</title>
<meta name="robots" content="noindex">
${FAVICON_LINK}
<script>${script}</script>
<style>${css}</style>
</head>
<body>
<main id="main" class="container page"><h1>Choose your language</h1><ul>${links}</ul></main>
</body>
</html>
`;
  return { html, script };
}
