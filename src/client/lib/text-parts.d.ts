/** See scripts/build/vite-text-parts.ts: one part of a namespace's texts, by language. */
declare module 'virtual:texts/*' {
  export const loaders: Record<string, (() => Promise<Record<string, unknown>>) | undefined>;
}
