import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { moduleSideEffects } from './scripts/build/tree-shaking.ts';
import { textParts } from './scripts/build/vite-text-parts.ts';

/**
 * A module of the site is fetched when it is about to run: the entry, React DOM and the page's module
 * while the page hydrates, the others when the visitor needs them. The magic comment (Chrome 136+,
 * a comment elsewhere) has V8 compile all of a module's functions while it streams in, on a
 * background thread, instead of each on the main thread the first time hydration calls it
 * (decision 089). Added last, on the first line: after minification, which drops comments, and
 * after the list of preloads Vite puts at the top of some chunks.
 */
function compileHints(): Plugin {
  return {
    name: 'compile-hints',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const file of Object.values(bundle)) {
          if (file.type === 'chunk') file.code = `//# allFunctionsCalledOnLoad\n${file.code}`;
        }
      },
    },
  };
}

// The client build: one entry module and a chunk per page. `npm run build` also builds
// src/client/app/entry-prerender.tsx for Node (see scripts/build/prerender.ts) to write the HTML.
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), textParts(import.meta.dirname), compileHints()],
  publicDir: 'public',
  // The prerender bundle carries React's production build (and react-i18next, which must share it):
  // left external, React picks its build by the NODE_ENV of the process that renders, and a server
  // or build started without one renders with the development build, several times slower
  // (decision 249).
  ...(isSsrBuild && {
    ssr: { noExternal: ['react', 'react-dom', 'react-i18next', 'scheduler'] },
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  }),
  build: {
    outDir: 'dist/client',
    manifest: true,
    target: 'es2022',
    rollupOptions: {
      input: 'src/client/app/entry-client.tsx',
      treeshake: { moduleSideEffects },
      output: {
        // Every module a page loads before hydrating (the static import graph of the entry) goes
        // into one chunk: fewer requests, and one gzip stream compresses better than several
        // shared chunks. What is imported on demand (pages, forms, visitor services) stays out.
        // i18next, a third of that chunk, is a chunk of its own: each module is compiled and set up
        // in a task of its own, and one task for all of it was long enough to count as blocking on
        // a slow phone (decision 090).
        codeSplitting: {
          groups: [
            { name: 'i18next', test: /node_modules[\\/]i18next[\\/]/ },
            { name: 'app', tags: ['$initial'] },
          ],
        },
      },
    },
  },
  // Two projects: `unit` needs nothing but Node and runs in seconds (`npm run test:unit`); `db`
  // holds the suites that open a database or start a server, named `*.db.test.ts`
  // (`npm run test:db`). A database suite starts from a copy of one migrated database per run.
  test: {
    reporters: ['default', './tests/support/failures-last.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts', 'tests/**/*.test.ts'],
          exclude: ['**/*.db.test.ts', '**/node_modules/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'db',
          include: ['src/**/*.db.test.ts', 'scripts/**/*.db.test.ts', 'tests/**/*.db.test.ts'],
          globalSetup: ['tests/support/database-template.ts'],
          // These suites mostly wait (on the disk, a server, a timer), so several files run at once
          // even on two cores; Vitest's default there would be one.
          maxWorkers: 4,
          // Server tests run dozens of requests against a real database that syncs every commit to
          // disk; on a busy two-core machine that can pass five seconds without anything being wrong.
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
}));
