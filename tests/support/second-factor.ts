import { newTotpSecret, sealTotpSecret, stepAt, totpCode } from '#server/features/accounts/index.ts';
import type { Queryable } from '#server/platform/db/database.ts';

/**
 * Gives the account with this address an authenticator app, as if its owner had set it up, and
 * counts its open sessions as made with it: staff in tests need both to use the console. Returns
 * the app's secret, to make codes with `codeFor`. Without `serverSecret` the stored secret cannot
 * be read back (for seeds whose codes are never asked for).
 */
export async function giveSecondFactor(db: Queryable, email: string, serverSecret?: Buffer): Promise<string> {
  const secret = newTotpSecret();
  const stored = serverSecret ? sealTotpSecret(serverSecret, secret) : 'not-a-sealed-secret';
  await db.query(
    `INSERT INTO account_totp (account_id, secret, confirmed_at)
     SELECT id, $2, now() FROM accounts WHERE email = $1
     ON CONFLICT (account_id) DO UPDATE SET secret = excluded.secret, confirmed_at = now(), last_step = 0`,
    [email, stored],
  );
  await db.query(
    `UPDATE sessions SET factors = '{password,totp}' WHERE account_id = (SELECT id FROM accounts WHERE email = $1)`,
    [email],
  );
  return secret;
}

/** The app's code for now, or `steps` periods of 30 seconds away from now (to have a fresh one: a code works once). */
export const codeFor = (secret: string, steps = 0) => totpCode(secret, stepAt(Date.now()) + steps);
