import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// The client build: one entry module and a chunk per page. `npm run build` also builds
// src/client/app/entry-prerender.tsx for Node (see scripts/prerender.ts) to write the HTML.
const CRITICAL_MODULES =
  /node_modules\/(react|react-dom|scheduler|react-router|cookie-es|i18next|react-i18next)\//;

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
        // The libraries every page hydrates with go into one chunk beside the entry: fewer
        // requests, and one gzip stream compresses better than several shared chunks. A group
        // takes a matched module's whole import tree with it, so nothing that is loaded on demand
        // (after the first paint, or by one page, like zod for the forms) may match.
        codeSplitting: { groups: [{ name: 'app', test: CRITICAL_MODULES }] },
      },
    },
  },
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
  },
});
