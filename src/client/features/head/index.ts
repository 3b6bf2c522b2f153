export type { PageHead } from './page-head.ts';
export { pageHead } from './page-head.ts';
export type { ShareCard, ShareHead, ShareImage, ShareMeta } from './share-head.ts';
export { ogLocale, shareCard, shareHead } from './share-head.ts';
export { useHeadSync } from './use-head-sync.ts';
