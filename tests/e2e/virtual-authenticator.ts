import type { Page } from '@playwright/test';

/**
 * Chromium's virtual authenticator over the DevTools protocol: a platform authenticator that keeps
 * discoverable passkeys and verifies its user (as a fingerprint would) without asking anyone.
 * `lose` forgets every passkey it holds, as a lost or wiped device would.
 */
export async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
    lose: () => cdp.send('WebAuthn.clearCredentials', { authenticatorId }),
  };
}
