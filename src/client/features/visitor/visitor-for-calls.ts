import { readConsent } from '#client/features/consent/index.ts';
import { readPageSiteConfig } from '#client/lib/site-config.tsx';
import { renewVisitorId, visitorIdRun } from './use-visitor-id.ts';

/**
 * How long a form waits for the identifier before it sends without one (the server takes account
 * calls without it, decision 051). Computing it takes well under a second on a phone; this only
 * bounds a flow that hangs.
 */
export const VISITOR_WAIT_MS = 5_000;

/** Whether this visitor's identifier may be computed: always, or with the privacy option only after consent. */
export function mayIdentify(): boolean {
  return !readPageSiteConfig().privacy.fingerprintAfterConsent || readConsent() === 'granted';
}

const waitAtMost = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Before an account call: when the visitor may have an identifier, waits for it (starting the flow
 * at once if the page has not started it yet), so that the call carries the cookie. Never fails:
 * a visitor without one (declined under the privacy option, cookies blocked, the flow failed or
 * too slow) is sent on without it.
 */
export async function beforeVisitorCall(limitMs = VISITOR_WAIT_MS): Promise<void> {
  if (!mayIdentify()) return;
  await Promise.race([visitorIdRun(), waitAtMost(limitMs)]);
}

/**
 * After the server refused the identifier (INVALID_FINGERPRINT): forgets it and gets a new one
 * where the visitor may have one, so that the call can be made once more.
 */
export async function afterRefusedVisitor(limitMs = VISITOR_WAIT_MS): Promise<void> {
  const renewed = renewVisitorId(mayIdentify());
  await Promise.race([renewed, waitAtMost(limitMs)]);
}
