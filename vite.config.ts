import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// The client build: one entry module and a chunk per page. `npm run build` also builds
// src/client/app/entry-prerender.tsx for Node (see scripts/prerender.ts) to write the HTML.
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
        codeSplitting: {
          groups: [{ name: 'app', tags: ['$initial'], test: (id) => !id.endsWith('/src/client/app/entry-client.tsx') }],
        },
      },
    },
  },
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
  },
});
