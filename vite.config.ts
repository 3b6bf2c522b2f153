import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// The client build: one entry module and a chunk per page. `npm run build` also builds
// src/client/app/entry-prerender.tsx for Node (see scripts/prerender.ts) to write the HTML.
const CRITICAL_MODULES =
  /node_modules\/(react|react-dom|scheduler|react-router|cookie-es|i18next|react-i18next)\/|\/src\/(common|client\/app)\//;

export default defineConfig({
  plugins: [react()],
  publicDir: 'public',
  build: {
    outDir: 'dist/client',
    manifest: true,
    target: 'es2022',
    rollupOptions: {
      input: 'src/client/app/entry-client.tsx',
      output: {
        // Everything a page needs to hydrate goes into one chunk: fewer requests, and one gzip
        // stream compresses better than several. Libraries loaded on demand stay out of it.
        codeSplitting: { groups: [{ name: 'app', test: CRITICAL_MODULES }] },
      },
    },
  },
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
  },
});
