import { CODE_LIFETIME_MINUTES, CODE_MAX_ATTEMPTS } from '../../common/account-api.ts';
import type { Language } from '../../common/languages.ts';
import { type CodePurpose, storeCode, tryCode } from '../db/codes.ts';
import type { Queryable } from '../db/database.ts';
import { codeMail } from '../mail/code-mail.ts';
import type { AccountServices } from './services.ts';
import { keyedHash, newCode } from './tokens.ts';

const codeHash = (secret: Buffer, purpose: CodePurpose, accountId: string, code: string) =>
  keyedHash(secret, 'code', purpose, accountId, code);

/** Makes a new code for an account (the previous one stops working) and mails it in `language`. */
export async function issueCode(
  services: AccountServices,
  purpose: CodePurpose,
  account: { id: string; email: string; name: string },
  language: Language,
): Promise<void> {
  const code = newCode();
  await storeCode(
    services.db,
    account.id,
    purpose,
    codeHash(services.secret, purpose, account.id, code),
    CODE_LIFETIME_MINUTES * 60,
  );
  await services.mailer.send(
    codeMail(services.site, services.texts, purpose, { ...account, language }, code, CODE_LIFETIME_MINUTES),
  );
}

/** Spends one try of the account's code; true when it matched, and then the code is used up. */
export function redeemCode(
  db: Queryable,
  secret: Buffer,
  purpose: CodePurpose,
  accountId: string,
  code: string,
): Promise<boolean> {
  return tryCode(db, accountId, purpose, codeHash(secret, purpose, accountId, code), CODE_MAX_ATTEMPTS);
}
