import { renderSVG } from 'uqr';
import {
  ACCOUNT_API,
  type RecoveryCodesAnswer,
  type SecondFactorsAnswer,
  type TotpStartAnswer,
} from '#common/account-api.ts';
import {
  ForgetBrowserSchema,
  PasswordOnlySchema,
  TotpConfirmSchema,
  TotpDisableSchema,
} from '#common/account-schemas.ts';
import { NoFieldsSchema } from '#common/fields.ts';
import { ApiError } from '#server/http/api-error.ts';
import { newRoutes } from '#server/http/context.ts';
import { jsonBody } from '#server/http/json-body.ts';
import type { AccountDeps } from './account-deps.ts';
import { findAccountById } from './account-queries.ts';
import { confirmFactorChange } from './confirm-owner.ts';
import { countPasskeys } from './passkey-queries.ts';
import {
  confirmTotp,
  deleteRecoveryCodes,
  deleteTotp,
  deleteTrustedBrowser,
  findTotp,
  hasSecondFactor,
  hasTotp,
  listTrustedBrowsers,
  recoveryCodesLeft,
  savePendingTotp,
} from './second-factor-queries.ts';
import {
  afterFactorChange,
  forgetTrustCookie,
  issueRecoveryCodes,
  proveSecondFactor,
  tellOwner,
  trustedTokenHash,
} from './second-factors.ts';
import { addSessionFactor } from './session-queries.ts';
import { requireSession } from './sessions.ts';
import { matchingStep, newTotpSecret, openTotpSecret, sealTotpSecret, totpUri } from './totp.ts';

/**
 * The account's second factors: an authenticator app with its recovery codes, and the browsers
 * trusted to skip the second step. Each change asks for the password (a session left open is not
 * enough; an account without one signs in again at its provider: docs/decisions/220), ends the
 * account's other sessions and tells the owner by mail.
 */
export function secondFactorRoutes(deps: AccountDeps) {
  const { db, secret } = deps;
  const routes = newRoutes();
  const signedIn = requireSession(db, deps.settings.sessionIdleSeconds);

  const wrongCode = () => new ApiError(400, 'INVALID_CODE', { fields: { code: 'INVALID_CODE' } });

  routes.get(ACCOUNT_API.secondFactors, signedIn, async (c) => {
    const { accountId } = c.get('session');
    const current = trustedTokenHash(c);
    const browsers = await listTrustedBrowsers(db, accountId);
    return c.json({
      totp: await hasTotp(db, accountId),
      passkey: (await countPasskeys(db, accountId)) > 0,
      recoveryCodesLeft: await recoveryCodesLeft(db, accountId),
      trustedBrowsers: browsers.map((browser) => ({
        id: browser.id,
        label: browser.label,
        createdAt: browser.createdAt.toISOString(),
        expiresAt: browser.expiresAt.toISOString(),
        current: browser.tokenHash === current,
      })),
    } satisfies SecondFactorsAnswer);
  });

  // A new secret, unconfirmed until a code made from it comes back; asking again replaces it.
  routes.post(ACCOUNT_API.totpStart, signedIn, jsonBody(NoFieldsSchema), async (c) => {
    const { accountId } = c.get('session');
    const account = await findAccountById(db, accountId);
    if (!account) throw new ApiError(401, 'UNAUTHORIZED');
    const totpSecret = newTotpSecret();
    if (!(await savePendingTotp(db, accountId, sealTotpSecret(secret, totpSecret)))) {
      throw new ApiError(409, 'TOTP_ALREADY_ON');
    }
    const uri = totpUri(totpSecret, deps.site.brand.siteName, account.email);
    // Drawn here, as SVG: no third party sees the secret, and the pages load no QR code library.
    const qrSvg = renderSVG(uri, { border: 2, pixelSize: 4 });
    return c.json({ secret: totpSecret, uri, qrSvg } satisfies TotpStartAnswer, 201);
  });

  routes.post(ACCOUNT_API.totpConfirm, signedIn, jsonBody(TotpConfirmSchema), async (c) => {
    const session = c.get('session');
    const { code, password } = c.req.valid('json');
    const { account, spend } = await confirmFactorChange(deps, session, password);
    const totp = await findTotp(db, account.id);
    if (!totp) throw new ApiError(409, 'TOTP_NOT_SET_UP');
    if (totp.confirmed) throw new ApiError(409, 'TOTP_ALREADY_ON');
    const step = matchingStep(openTotpSecret(secret, totp.secret), code.replace(/\s/g, ''));
    if (step === null) throw wrongCode();
    const recoveryCodes = await db.transaction(async (tx) => {
      await spend(tx);
      if (!(await confirmTotp(tx, account.id, step))) throw new ApiError(409, 'TOTP_ALREADY_ON');
      const codes = await issueRecoveryCodes(secret, tx, account.id);
      await afterFactorChange(tx, account.id, session.tokenHash);
      // This session just proved the app: it counts as made with two factors.
      await addSessionFactor(tx, session.tokenHash, 'totp');
      await tellOwner(deps, tx, account, 'totpAdded');
      return codes;
    });
    return c.json({ recoveryCodes } satisfies RecoveryCodesAnswer);
  });

  // The password and a current code (or a recovery code, for whoever lost the phone).
  routes.post(ACCOUNT_API.totpDisable, signedIn, jsonBody(TotpDisableSchema), async (c) => {
    const session = c.get('session');
    const { code, password } = c.req.valid('json');
    const { account, spend } = await confirmFactorChange(deps, session, password);
    if (!(await hasTotp(db, account.id))) throw new ApiError(409, 'TOTP_NOT_SET_UP');
    await db.transaction(async (tx) => {
      await spend(tx);
      if (!(await proveSecondFactor(secret, tx, account.id, code))) throw wrongCode();
      await deleteTotp(tx, account.id);
      // Passkeys left keep the recovery codes: they are the way back when the passkeys are lost.
      if (!(await hasSecondFactor(tx, account.id))) await deleteRecoveryCodes(tx, account.id);
      await afterFactorChange(tx, account.id, session.tokenHash);
      await tellOwner(deps, tx, account, 'totpRemoved');
    });
    forgetTrustCookie(c);
    return c.json({});
  });

  // New codes for an account with any second factor, the app or a passkey: the password proves
  // that the owner is there, as for every other change of the second factors.
  routes.post(ACCOUNT_API.recoveryCodes, signedIn, jsonBody(PasswordOnlySchema), async (c) => {
    const { account, spend } = await confirmFactorChange(deps, c.get('session'), c.req.valid('json').password);
    if (!(await hasSecondFactor(db, account.id))) throw new ApiError(409, 'TOTP_NOT_SET_UP');
    const recoveryCodes = await db.transaction(async (tx) => {
      await spend(tx);
      const codes = await issueRecoveryCodes(secret, tx, account.id);
      await tellOwner(deps, tx, account, 'recoveryCodesRenewed');
      return codes;
    });
    return c.json({ recoveryCodes } satisfies RecoveryCodesAnswer);
  });

  routes.post(ACCOUNT_API.forgetBrowser, signedIn, jsonBody(ForgetBrowserSchema), async (c) => {
    if (!(await deleteTrustedBrowser(db, c.get('session').accountId, c.req.valid('json').id))) {
      throw new ApiError(404, 'NOT_FOUND');
    }
    return c.json({});
  });

  return routes;
}
