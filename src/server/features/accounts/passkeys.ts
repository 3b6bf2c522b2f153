import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { RETENTION } from '#common/retention.ts';
import { ApiError } from '#server/http/api-error.ts';
import type { Queryable } from '#server/platform/db/database.ts';
import {
  type ChallengePurpose,
  dropChallenge,
  readSignInChallenge,
  type StoredPasskey,
  saveChallenge,
  spendSignInChallenge,
} from './passkey-queries.ts';
import type { RelyingParty } from './relying-party.ts';
import { hashSessionToken, newSessionToken } from './tokens.ts';

/** How long the browser may take to answer a challenge; the server keeps it as long. */
export const CHALLENGE_SECONDS = RETENTION.passkeyChallengeMinutes * 60;
/** The WebAuthn library and its certificate parsers (several megabytes resident), loaded at the first ceremony (decision 256). */
const webauthn = () => import('@simplewebauthn/server');

// Every passkey is discoverable (it can be offered before an address is typed) and verifies its
// user (a PIN, a fingerprint, a face): that is what lets a passkey alone count as two factors.
const USER_VERIFICATION = 'required';

/**
 * Keeps a new challenge for `purpose` and returns the token that names it: the page holds the
 * token (in memory) and sends it with the answer, so only that page can answer the challenge.
 */
export async function issueChallenge(
  db: Queryable,
  purpose: ChallengePurpose,
  challenge: string,
  sessionHash: string | null = null,
): Promise<string> {
  const token = newSessionToken();
  await saveChallenge(db, { tokenHash: hashSessionToken(token), challenge, purpose, sessionHash }, CHALLENGE_SECONDS);
  return token;
}

/** What the browser needs to make a passkey for the account; the ones it has are excluded (one per authenticator). */
export async function addOptions(
  rp: RelyingParty,
  account: { id: string; email: string; name: string },
  existing: readonly Pick<StoredPasskey, 'credentialId' | 'transports'>[],
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return (await webauthn()).generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    // The account's id, not its address: the authenticator stores it, and it should say nothing.
    userID: Buffer.from(account.id.replace(/-/g, ''), 'hex'),
    userName: account.email,
    userDisplayName: account.name,
    timeout: CHALLENGE_SECONDS * 1000,
    attestationType: 'none',
    excludeCredentials: existing.map((passkey) => ({
      id: passkey.credentialId,
      transports: passkey.transports,
    })),
    authenticatorSelection: { residentKey: 'required', userVerification: USER_VERIFICATION },
    supportedAlgorithmIDs: [-7, -257],
  });
}

/** What the browser needs to sign in with any passkey of this site (the authenticator offers its own). */
export async function signInOptions(rp: RelyingParty): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return (await webauthn()).generateAuthenticationOptions({
    rpID: rp.id,
    timeout: CHALLENGE_SECONDS * 1000,
    userVerification: USER_VERIFICATION,
  });
}

export interface NewPasskey {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
}

/** The passkey the browser made for `challenge`, checked; null when anything about it is wrong. */
export async function verifyNewPasskey(
  rp: RelyingParty,
  challenge: string,
  response: RegistrationResponseJSON,
): Promise<NewPasskey | null> {
  try {
    const { verified, registrationInfo } = await (await webauthn()).verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
    if (!verified || !registrationInfo) return null;
    const { credential } = registrationInfo;
    return {
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ?? [],
    };
  } catch {
    // A malformed answer (bad CBOR, a key of an unknown type, a wrong origin) is a wrong answer.
    return null;
  }
}

/** The assertion checked against the stored passkey: the authenticator's new counter, or null. */
export async function verifyAssertion(
  rp: RelyingParty,
  challenge: string,
  response: AuthenticationResponseJSON,
  passkey: Pick<StoredPasskey, 'credentialId' | 'publicKey' | 'counter' | 'transports'>,
): Promise<number | null> {
  try {
    const { verified, authenticationInfo } = await (await webauthn()).verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: true,
      credential: {
        id: passkey.credentialId,
        publicKey: Buffer.from(passkey.publicKey, 'base64url'),
        counter: passkey.counter,
        transports: passkey.transports,
      },
    });
    return verified ? authenticationInfo.newCounter : null;
  } catch {
    return null;
  }
}

/** The user handle a passkey of this account carries: the account's id as bytes (see addOptions). */
const userHandle = (accountId: string) => Buffer.from(accountId.replace(/-/g, ''), 'hex').toString('base64url');

/**
 * A sign-in's answer checked from end to end: its challenge read (while it lives), the passkey
 * found, the signature checked, and the challenge taken with the use recorded and the counter
 * moving forward in one statement (a signature seen before, from a clone, is refused). Whatever
 * fails takes the challenge too, so each is answered once. The passkey, or an ApiError.
 * `beforeCheck` runs once the account is known (its limits).
 */
export async function provePasskey(
  db: Queryable,
  rp: RelyingParty,
  ceremony: string,
  response: AuthenticationResponseJSON,
  beforeCheck: (accountId: string) => Promise<void> = async () => {},
): Promise<StoredPasskey> {
  const tokenHash = hashSessionToken(ceremony);
  const found = await readSignInChallenge(db, tokenHash, response.id);
  if (!found) throw new ApiError(401, 'PASSKEY_EXPIRED');
  let used = false;
  try {
    const { challenge, passkey } = found;
    if (!passkey) throw new ApiError(401, 'PASSKEY_FAILED');
    await beforeCheck(passkey.accountId);
    if (response.response.userHandle && response.response.userHandle !== userHandle(passkey.accountId)) {
      throw new ApiError(401, 'PASSKEY_FAILED');
    }
    const counter = await verifyAssertion(rp, challenge, response, passkey);
    used = counter !== null && (await spendSignInChallenge(db, tokenHash, passkey.id, counter));
    if (!used) throw new ApiError(401, 'PASSKEY_FAILED');
    return passkey;
  } finally {
    if (!used) await dropChallenge(db, tokenHash);
  }
}
