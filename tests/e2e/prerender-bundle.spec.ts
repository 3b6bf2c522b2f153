// The bundle the build prerenders with and the instances render published pages with
// (dist/prerender): React's production build inside it, whatever NODE_ENV the process has (decision 249).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';

const BUNDLE = path.join(import.meta.dirname, '../../dist/prerender/entry-prerender.js');

test('the prerender bundle carries React and react-i18next, built for production', async () => {
  const source = await readFile(BUNDLE, 'utf8');
  const imported = [...source.matchAll(/\bfrom\s*["'`]([^"'`]+)["'`]/g)].map(([, name]) => name ?? '');
  expect(imported.filter((name) => /^(react|react-dom|react-i18next|scheduler)(\/|$)/.test(name))).toEqual([]);
  // Left in, it would choose React's build when the bundle runs.
  expect(source).not.toContain('process.env.NODE_ENV');
  expect(source).toContain('renderToString');
});
