import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { textParts } from './scripts/vite-text-parts.ts';

// The client build: one entry module and a chunk per page. `npm run build` also builds
// src/client/app/entry-prerender.tsx for Node (see scripts/prerender.ts) to write the HTML.
export default defineConfig({
  plugins: [react(), textParts(import.meta.dirname)],
  publicDir: 'public',
  build: {
    outDir: 'dist/client',
    manifest: true,
    target: 'es2022',
    rollupOptions: {
      input: 'src/client/app/entry-client.tsx',
      output: {
        // Every module a page loads before hydrating (the static import graph of the entry) goes
        // into one chunk: fewer requests, and one gzip stream compresses better than several
        // shared chunks. What is imported on demand (pages, forms, visitor services) stays out.
        codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] },
      },
    },
  },
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
    // Server tests run dozens of requests against a real database that syncs every commit to disk;
    // on a busy two-core machine that can pass five seconds without anything being wrong.
    testTimeout: 30_000,
  },
});
