export type { VisitorIdState } from './visitor-id.ts';
