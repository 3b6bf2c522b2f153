import type { LoginAnswer } from '#common/account-api.ts';
import { NoFieldsSchema } from '#common/fields.ts';
import {
  type AddOptionsAnswer,
  PASSKEY_API,
  PASSKEYS_PER_ACCOUNT,
  type PasskeyAddedAnswer,
  type PasskeyAnswer,
  type PasskeysAnswer,
  type SignInOptionsAnswer,
} from '#common/passkey-api.ts';
import {
  AddPasskeySchema,
  PasskeySignInSchema,
  RemovePasskeySchema,
  RenamePasskeySchema,
} from '#common/passkey-schemas.ts';
import { storageEntry } from '#common/storage.ts';
import { requireVisitor } from '#server/features/visitor/index.ts';
import { ApiError } from '#server/http/api-error.ts';
import { newRoutes } from '#server/http/context.ts';
import { setListedCookie } from '#server/http/cookies.ts';
import { jsonBody } from '#server/http/json-body.ts';
import type { AccountDeps } from './account-deps.ts';
import { findAccountById } from './account-queries.ts';
import { confirmFactorChange } from './confirm-owner.ts';
import { hit } from './limits.ts';
import { issuePass } from './passes.ts';
import {
  addPasskey,
  countPasskeys,
  deletePasskey,
  listPasskeys,
  renamePasskey,
  type StoredPasskey,
  takeChallenge,
} from './passkey-queries.ts';
import { addOptions, issueChallenge, provePasskey, signInOptions, verifyNewPasskey } from './passkeys.ts';
import { relyingParty } from './relying-party.ts';
import { deleteRecoveryCodes, hasSecondFactor } from './second-factor-queries.ts';
import { afterFactorChange, forgetTrustCookie, issueRecoveryCodes, tellOwner } from './second-factors.ts';
import { addSessionFactor } from './session-queries.ts';
import { requireSession, startSession } from './sessions.ts';
import { hashSessionToken } from './tokens.ts';

const KNOWN_DEVICE = storageEntry('knownDevice');

const answer = (passkey: StoredPasskey): PasskeyAnswer => ({
  id: passkey.id,
  name: passkey.name,
  createdAt: passkey.createdAt.toISOString(),
  lastUsedAt: passkey.lastUsedAt?.toISOString() ?? null,
});

/**
 * Passkeys: added, named, renamed and removed on the account page, and used to sign in, by the
 * button or the browser's autofill. A passkey verifies its user, so a sign-in with it counts as
 * two factors. Adding or removing one asks for the password (or, without one, a fresh sign-in at a
 * provider: docs/decisions/220), ends the account's other sessions and tells the owner by mail, as
 * the authenticator app does (docs/decisions/111).
 */
export function passkeyRoutes(deps: AccountDeps) {
  const { db, limiter } = deps;
  const routes = newRoutes();
  const signedIn = requireSession(db, deps.settings.sessionIdleSeconds);
  const rp = relyingParty(deps.site.siteUrl, deps.site.brand.siteName);
  const expired = () => new ApiError(401, 'PASSKEY_EXPIRED');

  routes.get(PASSKEY_API.list, signedIn, async (c) => {
    const passkeys = await listPasskeys(db, c.get('session').accountId);
    return c.json({ passkeys: passkeys.map(answer) } satisfies PasskeysAnswer);
  });

  // A challenge to make a passkey with, bound to this session and to the page that holds the token.
  routes.post(PASSKEY_API.addOptions, signedIn, jsonBody(NoFieldsSchema), async (c) => {
    const session = c.get('session');
    await limiter.enforce([hit('passkeyChallengePerClient', c.var.clientAddress)]);
    const account = await findAccountById(db, session.accountId);
    if (!account) throw new ApiError(401, 'UNAUTHORIZED');
    const existing = await listPasskeys(db, account.id);
    if (existing.length >= PASSKEYS_PER_ACCOUNT) throw new ApiError(409, 'PASSKEY_LIMIT');
    const options = await addOptions(rp, account, existing);
    const ceremony = await issueChallenge(db, 'add', options.challenge, session.tokenHash);
    return c.json({ ceremony, options } satisfies AddOptionsAnswer, 201);
  });

  routes.post(PASSKEY_API.add, signedIn, jsonBody(AddPasskeySchema), async (c) => {
    const session = c.get('session');
    const { ceremony, name, password, response } = c.req.valid('json');
    const { account, spend } = await confirmFactorChange(deps, session, password);
    const challenge = await takeChallenge(db, hashSessionToken(ceremony), 'add', session.tokenHash);
    if (!challenge) throw expired();
    const made = await verifyNewPasskey(rp, challenge, response);
    if (!made) throw new ApiError(400, 'PASSKEY_FAILED');
    const added = await db.transaction(async (tx) => {
      if ((await countPasskeys(tx, account.id)) >= PASSKEYS_PER_ACCOUNT) throw new ApiError(409, 'PASSKEY_LIMIT');
      // The account's first second factor brings recovery codes, the way back when it is lost.
      await spend(tx);
      const first = !(await hasSecondFactor(tx, account.id));
      const passkey = await addPasskey(tx, { ...made, accountId: account.id, name });
      if (!passkey) throw new ApiError(400, 'PASSKEY_FAILED');
      const recoveryCodes = first ? await issueRecoveryCodes(deps.secret, tx, account.id) : null;
      await afterFactorChange(tx, account.id, session.tokenHash);
      // The authenticator just verified its user for this session: it counts as made with two factors.
      await addSessionFactor(tx, session.tokenHash, 'passkey');
      await tellOwner(deps, tx, account, 'passkeyAdded', { passkey: name });
      return { passkey: answer(passkey), recoveryCodes };
    });
    return c.json(added satisfies PasskeyAddedAnswer, 201);
  });

  routes.post(PASSKEY_API.rename, signedIn, jsonBody(RenamePasskeySchema), async (c) => {
    const { id, name } = c.req.valid('json');
    if (!(await renamePasskey(db, c.get('session').accountId, id, name))) throw new ApiError(404, 'NOT_FOUND');
    return c.json({});
  });

  routes.post(PASSKEY_API.remove, signedIn, jsonBody(RemovePasskeySchema), async (c) => {
    const session = c.get('session');
    const { id, password } = c.req.valid('json');
    const { account, spend } = await confirmFactorChange(deps, session, password);
    await db.transaction(async (tx) => {
      await spend(tx);
      const name = await deletePasskey(tx, account.id, id);
      if (name === null) throw new ApiError(404, 'NOT_FOUND');
      // Without any second factor left, recovery codes would be a second factor of nothing.
      if (!(await hasSecondFactor(tx, account.id))) await deleteRecoveryCodes(tx, account.id);
      await afterFactorChange(tx, account.id, session.tokenHash);
      await tellOwner(deps, tx, account, 'passkeyRemoved', { passkey: name });
    });
    forgetTrustCookie(c);
    return c.json({});
  });

  // A challenge any passkey of this site can answer: the sign-in page asks for one after its first
  // paint (for the browser's autofill) and for its button.
  routes.post(PASSKEY_API.signInOptions, requireVisitor(deps.secret), jsonBody(NoFieldsSchema), async (c) => {
    await limiter.enforce([hit('passkeyChallengePerClient', c.var.clientAddress)]);
    const options = await signInOptions(rp);
    const ceremony = await issueChallenge(db, 'sign-in', options.challenge);
    return c.json({ ceremony, options } satisfies SignInOptionsAnswer, 201);
  });

  // Guesses are limited like the second step's: per client, then per account.
  routes.post(PASSKEY_API.signIn, requireVisitor(deps.secret), jsonBody(PasskeySignInSchema), async (c) => {
    const { ceremony, response } = c.req.valid('json');
    await limiter.enforce([hit('secondFactorPerClient', c.var.clientAddress)]);
    const passkey = await provePasskey(db, rp, ceremony, response, (accountId) =>
      limiter.enforce([hit('secondFactorPerAccount', accountId)]),
    );
    const account = await findAccountById(db, passkey.accountId);
    if (!account) throw new ApiError(401, 'PASSKEY_FAILED');
    await startSession(c, db, account.id, ['passkey']);
    // Its sign-ins go first during a flood of sign-ins, as after a password (docs/decisions/056).
    setListedCookie(c, KNOWN_DEVICE, issuePass(deps.secret, 'knownDevice', account.email), { httpOnly: true });
    return c.json({ status: 'signed-in', account: { name: account.name } } satisfies LoginAnswer);
  });

  return routes;
}
