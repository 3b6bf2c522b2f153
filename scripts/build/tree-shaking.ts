/**
 * Whether importing a module may do something by itself. A feature is imported through its
 * index.ts, which re-exports all the feature offers; the product's own modules only declare when
 * imported (stylesheets excepted), so what a page or the root page does not use of an index stays
 * out of its code. Without this, a module-level `new Set()` or a call at the top of one module kept
 * a whole feature in the first chunk. Packages keep their own say.
 */
export const moduleSideEffects = (id: string): boolean =>
  id.includes('node_modules') || !/[\\/]src[\\/].*\.tsx?$/.test(id);
