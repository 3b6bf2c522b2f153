import type { Context } from 'hono';
import { deleteCookie, getCookie } from 'hono/cookie';
import { DEFAULT_LANGUAGE, isLanguage } from '#common/languages.ts';
import { storageEntry } from '#common/storage.ts';
import type { Deps } from '#server/deps.ts';
import { lifetimeSeconds, setListedCookie } from '#server/http/cookies.ts';
import type { Queryable } from '#server/platform/db/database.ts';
import { queueMail } from '#server/platform/mail/mail-queue.ts';
import { summarizeAgent } from '#server/platform/user-agent.ts';
import type { Account } from './account-queries.ts';
import { newRecoveryCodes, normaliseRecoveryCode, recoveryCodeHash } from './recovery-codes.ts';
import {
  acceptTotpStep,
  addTrustedBrowser,
  deleteTrustedBrowsers,
  type Factor,
  findTotp,
  isTrustedBrowser,
  replaceRecoveryCodes,
  spendRecoveryCode,
} from './second-factor-queries.ts';
import { type SecurityEvent, securityMail } from './security-mail.ts';
import { deleteOtherSessions } from './session-queries.ts';
import { hashSessionToken, newSessionToken } from './tokens.ts';
import { matchingStep, openTotpSecret } from './totp.ts';

const TRUSTED_COOKIE = storageEntry('trustedBrowser');

/** Factors that count as the second one: staff need a session made with one of them. */
export const SECOND_FACTORS: readonly Factor[] = ['totp', 'recovery-code', 'trusted-browser', 'passkey', 'oidc-mfa'];

export const isStrongSession = (factors: readonly Factor[]) =>
  factors.some((factor) => SECOND_FACTORS.includes(factor));

/**
 * Checks what was typed at a second step: six digits against the authenticator app (a code of a
 * step not later than the last one accepted is refused, so a code works once), anything else as a
 * recovery code (spent by the check). The factor it proved, or null.
 */
export async function proveSecondFactor(
  secret: Buffer,
  db: Queryable,
  accountId: string,
  typed: string,
): Promise<'totp' | 'recovery-code' | null> {
  const digits = typed.replace(/\s/g, '');
  if (/^\d{6}$/.test(digits)) {
    const totp = await findTotp(db, accountId);
    if (!totp?.confirmed) return null;
    const step = matchingStep(openTotpSecret(secret, totp.secret), digits);
    return step !== null && (await acceptTotpStep(db, accountId, step)) ? 'totp' : null;
  }
  const normalised = normaliseRecoveryCode(typed);
  if (!normalised) return null;
  const spent = await spendRecoveryCode(db, accountId, recoveryCodeHash(secret, accountId, normalised));
  return spent ? 'recovery-code' : null;
}

/** A new set of recovery codes for the account (the old ones stop working); the codes, to show once. */
export async function issueRecoveryCodes(secret: Buffer, db: Queryable, accountId: string): Promise<string[]> {
  const codes = newRecoveryCodes();
  await replaceRecoveryCodes(
    db,
    accountId,
    codes.map((code) => recoveryCodeHash(secret, accountId, normaliseRecoveryCode(code) as string)),
  );
  return codes;
}

/**
 * After a factor is added or removed: every other session of the account ends (one made before
 * may belong to whoever the change keeps out), and no browser is trusted any more.
 */
export async function afterFactorChange(db: Queryable, accountId: string, keepTokenHash: string): Promise<void> {
  await deleteOtherSessions(db, accountId, keepTokenHash);
  await deleteTrustedBrowsers(db, accountId);
}

/** Queues the mail that tells the owner what changed, in the account's language. */
export async function tellOwner(
  deps: Pick<Deps, 'site' | 'texts'>,
  db: Queryable,
  account: Pick<Account, 'email' | 'name' | 'language'>,
  event: SecurityEvent,
  details?: { left?: number; passkey?: string },
): Promise<void> {
  const language = isLanguage(account.language) ? account.language : DEFAULT_LANGUAGE;
  await queueMail(db, securityMail(deps.site, deps.texts, { ...account, language }, event, details));
}

/** Whether the browser brings a trust cookie for this account that has not lapsed or been revoked. */
export async function browserIsTrusted(c: Context, db: Queryable, accountId: string): Promise<boolean> {
  const token = getCookie(c, TRUSTED_COOKIE.name);
  return token !== undefined && (await isTrustedBrowser(db, hashSessionToken(token), accountId));
}

/** Trusts the browser asking for the account, for the cookie's lifetime, named by its User-Agent for the account page. */
export async function trustBrowser(c: Context, db: Queryable, accountId: string): Promise<void> {
  const token = newSessionToken();
  await addTrustedBrowser(db, {
    tokenHash: hashSessionToken(token),
    accountId,
    label: browserLabel(c.req.header('User-Agent') ?? ''),
    seconds: lifetimeSeconds(TRUSTED_COOKIE),
  });
  setListedCookie(c, TRUSTED_COOKIE, token, { httpOnly: true });
}

/** The hash of the trust token the browser brings, to mark its row on the account page. */
export const trustedTokenHash = (c: Context) => {
  const token = getCookie(c, TRUSTED_COOKIE.name);
  return token === undefined ? null : hashSessionToken(token);
};

export const forgetTrustCookie = (c: Context) =>
  deleteCookie(c, TRUSTED_COOKIE.name, { path: '/', secure: true, httpOnly: true, sameSite: 'Lax' });

/**
 * "Firefox, Windows": enough for the owner to tell their browsers apart on the account page,
 * without keeping the whole User-Agent (read by the same rules as the analytics breakdowns).
 */
export function browserLabel(userAgent: string): string {
  const { browser, os } = summarizeAgent(userAgent);
  return [browser, os].filter(Boolean).join(', ');
}
