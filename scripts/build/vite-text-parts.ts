import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Plugin } from 'vite';
import { LANGUAGES } from '#common/languages.ts';

const PREFIX = 'virtual:texts/';
const NAME = /^[a-z][a-zA-Z]*$/;

/**
 * One top-level part of a namespace's texts as code, a small chunk per language:
 * `import { loaders } from 'virtual:texts/chat/launcher'`, then `await loaders[language]()`. For
 * code loaded after the first paint that needs a few texts of a namespace the page did not bring
 * (the chat's launcher, its panel, the console's chat): no request to /locales/, a hashed asset
 * cached for a year, and nothing of the namespace's other parts. The texts stay in
 * public/locales/{language}/{namespace}.json, where every other text is. Where the console published
 * over a language's texts, the page says so and the code reads the texts file instead
 * (src/client/lib/use-text-part.ts, decision 235).
 */
export function textParts(root: string): Plugin {
  return {
    name: 'text-parts',
    resolveId(id) {
      return id.startsWith(PREFIX) ? `\0${id}` : undefined;
    },
    async load(id) {
      if (!id.startsWith(`\0${PREFIX}`)) return undefined;
      const [ns = '', part = '', language, ...rest] = id.slice(PREFIX.length + 1).split('/');
      if (!NAME.test(ns) || !NAME.test(part) || rest.length > 0) throw new Error(`Bad text module ${id}`);
      if (language === undefined) {
        const loaders = LANGUAGES.map(
          (lang) =>
            `${JSON.stringify(lang)}: () => import(${JSON.stringify(`${PREFIX}${ns}/${part}/${lang}`)}).then((m) => m.default)`,
        );
        return `export const loaders = {${loaders.join(',\n')}};`;
      }
      if (!(LANGUAGES as readonly string[]).includes(language)) throw new Error(`Bad text module ${id}`);
      const file = path.join(root, 'public/locales', language, `${ns}.json`);
      this.addWatchFile(file);
      const texts = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
      if (!(part in texts)) throw new Error(`${file} has no "${part}"`);
      return `export default ${JSON.stringify(texts[part])};`;
    },
  };
}
