export { useVisitorId } from './use-visitor-id.ts';
export { afterRefusedVisitor, beforeVisitorCall, mayIdentify } from './visitor-for-calls.ts';
export type { VisitorIdState } from './visitor-id.ts';
