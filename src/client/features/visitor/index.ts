export { useVisitorId } from './use-visitor-id.ts';
export type { VisitorIdState } from './visitor-id.ts';
/** The identifier's part for sending forms, a chunk of its own: loaded when such a form is sent. */
export const loadVisitorForCalls = () => import('./visitor-for-calls.ts');
