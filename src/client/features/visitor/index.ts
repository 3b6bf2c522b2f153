export { useVisitorId } from './use-visitor-id.ts';
export type { VisitorIdState } from './visitor-id.ts';
