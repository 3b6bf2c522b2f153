import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { moduleSideEffects } from './scripts/build/tree-shaking.ts';
import { textParts } from './scripts/build/vite-text-parts.ts';

// The operator console: a build of its own, so that nothing of it (nor the chart library) can end up
// in a chunk a public page loads. Its files go beside the site's in dist/client/assets, named
// console-*, and its manifest where the site's is; scripts/build/prerender.ts writes the page that loads it.
export default defineConfig({
  // The operators' chat brings its texts as small per-language chunks, as the widget does.
  plugins: [react(), textParts(import.meta.dirname)],
  publicDir: false,
  build: {
    outDir: 'dist/client',
    emptyOutDir: false,
    manifest: '.vite/console-manifest.json',
    target: 'es2022',
    rollupOptions: {
      input: 'src/client/console/entry.tsx',
      treeshake: { moduleSideEffects },
      output: {
        entryFileNames: 'assets/console-[hash].js',
        chunkFileNames: 'assets/console-[name]-[hash].js',
        assetFileNames: 'assets/console-[name]-[hash][extname]',
      },
    },
  },
});
