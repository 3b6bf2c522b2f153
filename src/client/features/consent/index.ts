export { readConsent } from './consent.ts';
