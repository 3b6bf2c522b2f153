import { expect, type Page } from '@playwright/test';
import { stepAt, totpCode } from '#server/features/accounts/index.ts';

/** The last time step whose code a test gave, per secret: the server takes each step's code once. */
const spent = new Map<string, number>();

/**
 * A code the server has not seen yet, as the owner's app would show it: the current step's, or,
 * when that one was given already, the next step's (accepted too), waiting for the clock if even
 * that was used.
 */
export async function freshCode(secret: string): Promise<string> {
  const wanted = Math.max(stepAt(Date.now()), (spent.get(secret) ?? 0) + 1);
  await expect.poll(() => stepAt(Date.now()) >= wanted - 1, { timeout: 65_000, intervals: [500] }).toBe(true);
  spent.set(secret, wanted);
  return totpCode(secret, wanted);
}

/** Sets up the authenticator app on the account page, from the secret it shows; the recovery codes shown. */
export async function enrolOnAccountPage(page: Page, password: string): Promise<{ secret: string; codes: string[] }> {
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  await expect(page.getByRole('img', { name: 'QR code that adds your account to an authenticator app' })).toBeVisible();
  const secret = ((await page.locator('.account__secret').textContent()) ?? '').replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await page.locator('#totp-confirm-code').fill(await freshCode(secret));
  await page.locator('#totp-confirm-password').fill(password);
  await page.getByRole('button', { name: 'Turn on', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Your recovery codes' })).toBeVisible();
  const codes = await page.locator('.account__codes code').allTextContents();
  expect(codes).toHaveLength(10);
  return { secret, codes };
}
