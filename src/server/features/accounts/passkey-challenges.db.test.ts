import { expect, it } from 'vitest';
import { describeOnDatabases } from '#tests/support/databases.ts';
import {
  addPasskey,
  dropChallenge,
  pruneChallenges,
  readSignInChallenge,
  spendSignInChallenge,
  takeChallenge,
} from './passkey-queries.ts';
import { issueChallenge } from './passkeys.ts';
import { hashSessionToken } from './tokens.ts';

describeOnDatabases('passkey challenges', (db) => {
  it('are taken once, for their purpose and by the session that asked', async () => {
    const token = await issueChallenge(db(), 'add', 'challenge-one', 'session-a');
    expect(await takeChallenge(db(), hashSessionToken(token), 'add', 'session-b')).toBeNull();
    const again = await issueChallenge(db(), 'add', 'challenge-two', 'session-a');
    expect(await takeChallenge(db(), hashSessionToken(again), 'sign-in', null)).toBeNull();
    const third = await issueChallenge(db(), 'add', 'challenge-three', 'session-a');
    expect(await takeChallenge(db(), hashSessionToken(third), 'add', 'session-a')).toBe('challenge-three');
    expect(await takeChallenge(db(), hashSessionToken(third), 'add', 'session-a')).toBeNull();
  });

  it('lapse, and the lapsed ones are pruned', async () => {
    const token = await issueChallenge(db(), 'sign-in', 'late-challenge');
    const live = await issueChallenge(db(), 'sign-in', 'live-challenge');
    await db().query(
      `UPDATE passkey_challenges SET expires_at = now() - interval '1 second' WHERE challenge = 'late-challenge'`,
    );
    await pruneChallenges(db());
    const left = await db().query<{ challenge: string }>('SELECT challenge FROM passkey_challenges');
    expect(left.map((row) => row.challenge)).not.toContain('late-challenge');
    expect(await takeChallenge(db(), hashSessionToken(token), 'sign-in', null)).toBeNull();
    expect(await takeChallenge(db(), hashSessionToken(live), 'sign-in', null)).toBe('live-challenge');
  });

  it('lapsed but not yet pruned are refused all the same', async () => {
    const token = await issueChallenge(db(), 'sign-in', 'stale-challenge');
    await db().query(
      `UPDATE passkey_challenges SET expires_at = now() - interval '1 second' WHERE challenge = 'stale-challenge'`,
    );
    expect(await takeChallenge(db(), hashSessionToken(token), 'sign-in', null)).toBeNull();
  });

  it('for a sign-in are read with the passkey that answered while they live, and taken once with its use', async () => {
    const adding = await issueChallenge(db(), 'add', 'add-challenge', 'session-a');
    expect(await readSignInChallenge(db(), hashSessionToken(adding), 'any-credential')).toBeNull();
    const stale = await issueChallenge(db(), 'sign-in', 'stale-sign-in');
    await db().query(
      `UPDATE passkey_challenges SET expires_at = now() - interval '1 second' WHERE challenge = 'stale-sign-in'`,
    );
    expect(await readSignInChallenge(db(), hashSessionToken(stale), 'any-credential')).toBeNull();

    const [account] = await db().query<{ id: string }>(
      `INSERT INTO accounts (name, email, phone, password_hash, language, verified_at)
       VALUES ('Ada', 'challenges-${Date.now()}@example.com', NULL, 'x', 'en', now()) RETURNING id`,
    );
    const passkey = await addPasskey(db(), {
      accountId: account?.id ?? '',
      credentialId: `credential-${Date.now()}`,
      publicKey: 'key',
      counter: 5,
      transports: [],
      name: 'Laptop',
    });
    const live = await issueChallenge(db(), 'sign-in', 'live-sign-in');
    const hash = hashSessionToken(live);
    expect(await readSignInChallenge(db(), hash, 'unknown-credential')).toEqual({
      challenge: 'live-sign-in',
      passkey: null,
    });
    expect(await readSignInChallenge(db(), hash, passkey?.credentialId ?? '')).toEqual({
      challenge: 'live-sign-in',
      passkey,
    });
    // A counter that does not move forward is refused, and the challenge is gone all the same.
    expect(await spendSignInChallenge(db(), hash, passkey?.id ?? '', 5)).toBe(false);
    expect(await readSignInChallenge(db(), hash, passkey?.credentialId ?? '')).toBeNull();
    const next = hashSessionToken(await issueChallenge(db(), 'sign-in', 'next-sign-in'));
    expect(await spendSignInChallenge(db(), next, passkey?.id ?? '', 6)).toBe(true);
    expect(await spendSignInChallenge(db(), next, passkey?.id ?? '', 7)).toBe(false);
    const wrong = hashSessionToken(await issueChallenge(db(), 'sign-in', 'wrong-sign-in'));
    await dropChallenge(db(), wrong);
    expect(await readSignInChallenge(db(), wrong, passkey?.credentialId ?? '')).toBeNull();
  });
});
