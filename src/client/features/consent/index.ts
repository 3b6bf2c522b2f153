export { ConsentPrompt } from './ConsentPrompt.tsx';
export { ConsentSettings } from './ConsentSettings.tsx';
export { forgetConsentedItems, needsConsent, readConsent, useConsent } from './consent.ts';
