import { defineConfig } from 'vite';

// The server's build, which `npm run serve` runs: src/server/main.ts and the modules of src/ it
// imports in one file, dist/server/main.js, with a chunk for each module it loads on demand; the
// packages stay in node_modules, but for two (below). Node then holds one module instead of some
// 250, each with its source (comments too) on the heap: an idle server holds some 6 MiB less
// (decision 260). Comments and blank space go; names stay, so that a stack trace in the log reads
// as the source does.
// Tests and `npm run dev` run the source.
//
// Two packages are built in, for what the server does not use of them: zod/mini's entry imports
// all of zod (its 64 locales, JSON schema, the compiler: some 90 modules, 0.8 MB of source) and
// libphonenumber-js/min's the formatter as you type and the finder of numbers in text; built in,
// only what the server calls is kept. Some 5.5 MiB less for an idle server. Nothing loaded from
// node_modules may import either (it would get a second copy, without `src/common/zod.ts`'s
// settings; tests/deploy/server-build-packages.test.ts checks). The output is ASCII: a source with
// one character beyond Latin-1 is held by V8 as two bytes a character, so ten such characters in
// our texts doubled main.js on the heap.
export default defineConfig({
  publicDir: false,
  logLevel: 'warn',
  ssr: { noExternal: ['zod', 'libphonenumber-js'] },
  build: {
    ssr: 'src/server/main.ts',
    outDir: 'dist/server',
    emptyOutDir: true,
    target: 'node22',
    minify: false,
    rollupOptions: {
      output: { minify: { compress: false, mangle: false, codegen: { removeWhitespace: true, asciiOnly: true } } },
    },
  },
});
