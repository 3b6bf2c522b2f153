export type { PageHead } from './page-head.ts';
export { pageHead } from './page-head.ts';
export { useHeadSync } from './use-head-sync.ts';
