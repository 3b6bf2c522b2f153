import { describe, expect, it } from 'vitest';
import { createSoftAuthenticator } from '#tests/support/soft-authenticator.ts';
import { addOptions, signInOptions, verifyAssertion, verifyNewPasskey } from './passkeys.ts';
import { relyingParty } from './relying-party.ts';

const rp = relyingParty('http://127.0.0.1:4400', 'Example');
const authenticator = createSoftAuthenticator('http://localhost:4400');
const account = { id: '6f1c8e0a-2b7d-4c1e-9a55-0c2f3d4e5f60', email: 'ada@example.com', name: 'Ada' };

/** A passkey made and checked as the account page does it. */
async function madePasskey() {
  const options = await addOptions(rp, account, []);
  const { passkey, response } = authenticator.create(options);
  const stored = await verifyNewPasskey(rp, options.challenge, response);
  if (!stored) throw new Error('A right passkey was refused');
  return { passkey, stored };
}

describe('passkey checks', () => {
  it('accept a new passkey for its own challenge only', async () => {
    const options = await addOptions(rp, account, []);
    const { response } = authenticator.create(options);
    expect(await verifyNewPasskey(rp, 'another-challenge', response)).toBeNull();
    expect(await verifyNewPasskey(rp, options.challenge, response)).toMatchObject({
      counter: 0,
      transports: ['internal'],
    });
  });

  it('accept an assertion for the challenge it signed, and not for a later one (a replay)', async () => {
    const { passkey, stored } = await madePasskey();
    const first = await signInOptions(rp);
    const answer = authenticator.assert(passkey, first);
    expect(await verifyAssertion(rp, first.challenge, answer, stored)).toBe(1);
    const second = await signInOptions(rp);
    expect(second.challenge).not.toBe(first.challenge);
    expect(await verifyAssertion(rp, second.challenge, answer, stored)).toBeNull();
  });

  it('refuse an assertion without user verification, or whose counter did not move', async () => {
    const { passkey, stored } = await madePasskey();
    const options = await signInOptions(rp);
    expect(
      await verifyAssertion(
        rp,
        options.challenge,
        authenticator.assert(passkey, options, authenticator.userPresentOnly),
        stored,
      ),
    ).toBeNull();
    const answer = authenticator.assert(passkey, options);
    expect(await verifyAssertion(rp, options.challenge, answer, { ...stored, counter: passkey.counter })).toBeNull();
  });

  it('refuse an assertion made for another site', async () => {
    const { passkey, stored } = await madePasskey();
    const options = await signInOptions(rp);
    const phished = createSoftAuthenticator('https://login.example.net').assert(passkey, options);
    expect(await verifyAssertion(rp, options.challenge, phished, stored)).toBeNull();
    const otherRp = authenticator.assert(passkey, { ...options, rpId: 'example.net' });
    expect(await verifyAssertion(rp, options.challenge, otherRp, stored)).toBeNull();
  });
});
