import { expect, it } from 'vitest';
import { describeOnDatabases } from '#tests/support/databases.ts';
import { pruneChallenges, takeChallenge, takeSignInChallenge } from './passkey-queries.ts';
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

  it('for a sign-in are taken with the passkey that answered, once, while they live, and not for adding one', async () => {
    const adding = await issueChallenge(db(), 'add', 'add-challenge', 'session-a');
    expect(await takeSignInChallenge(db(), hashSessionToken(adding), 'any-credential')).toBeNull();
    const stale = await issueChallenge(db(), 'sign-in', 'stale-sign-in');
    await db().query(
      `UPDATE passkey_challenges SET expires_at = now() - interval '1 second' WHERE challenge = 'stale-sign-in'`,
    );
    expect(await takeSignInChallenge(db(), hashSessionToken(stale), 'any-credential')).toBeNull();
    const left = await db().query<{ challenge: string }>('SELECT challenge FROM passkey_challenges');
    expect(left.map((row) => row.challenge)).not.toContain('stale-sign-in');
    // A live challenge answered by a passkey the site does not know: the challenge is gone all the same.
    const live = await issueChallenge(db(), 'sign-in', 'live-sign-in');
    expect(await takeSignInChallenge(db(), hashSessionToken(live), 'unknown-credential')).toEqual({
      challenge: 'live-sign-in',
      passkey: null,
    });
    expect(await takeSignInChallenge(db(), hashSessionToken(live), 'unknown-credential')).toBeNull();
  });
});
