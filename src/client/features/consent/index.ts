export { forgetConsentedItems, readConsent } from './consent.ts';
