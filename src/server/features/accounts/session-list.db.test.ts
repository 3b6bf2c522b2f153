import { expect, it } from 'vitest';
import { ACCOUNT_API } from '#common/account-api.ts';
import { ACCOUNT_SETTINGS_API, type SessionListAnswer } from '#common/account-settings-api.ts';
import { describeApi } from '#tests/support/api.ts';

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

describeApi('the account page: sessions', (api) => {
  it('lists the sessions with browser, system, factors and dates, and marks this browser', async () => {
    const { client, person } = await api.member();
    const phone = api.client();
    await phone.post(
      ACCOUNT_API.login,
      { email: person.email, password: person.password },
      { 'User-Agent': SAFARI_IPHONE },
    );
    const laptop = api.client();
    await laptop.post(
      ACCOUNT_API.login,
      { email: person.email, password: person.password },
      { 'User-Agent': FIREFOX_WINDOWS },
    );

    const answer = await laptop.get(ACCOUNT_SETTINGS_API.sessions);
    expect(answer.status).toBe(200);
    const { sessions } = answer.body as unknown as SessionListAnswer;
    expect(sessions).toHaveLength(3);
    expect(sessions[0]).toMatchObject({ label: 'Firefox, Windows', factors: ['password'], current: true });
    expect(sessions.map((session) => session.label).sort()).toEqual(['', 'Firefox, Windows', 'Safari, iOS']);
    // The registering browser confirmed its address with the mailed code.
    expect(sessions.find((session) => session.label === '')?.factors).toEqual(['email-code']);
    expect(sessions.filter((session) => session.current)).toHaveLength(1);
    for (const session of sessions) {
      expect(Object.keys(session).sort()).toEqual(['createdAt', 'current', 'factors', 'id', 'label', 'lastSeenAt']);
      expect(Number.isNaN(Date.parse(session.createdAt))).toBe(false);
    }
    // Nothing of the client's address is kept with a session, nor the User-Agent itself.
    const columns = await api.db().query<{ name: string }>(
      `SELECT column_name AS name FROM information_schema.columns
         WHERE table_schema = current_schema() AND table_name = 'sessions' ORDER BY column_name`,
    );
    expect(columns.map((column) => column.name)).toEqual([
      'account_id',
      'created_at',
      'expires_at',
      'factors',
      'id',
      'label',
      'last_seen_at',
      'reauthenticated_at',
      'token_hash',
    ]);
    expect((await client.get(ACCOUNT_SETTINGS_API.sessions)).body).toMatchObject({
      sessions: [{ label: '', current: true }, {}, {}],
    });
  });

  it('ends one session by its id, and only the account’s own', async () => {
    const { client, person } = await api.member();
    const other = api.client();
    await other.post(ACCOUNT_API.login, { email: person.email, password: person.password });
    const { sessions } = (await client.get(ACCOUNT_SETTINGS_API.sessions)).body as unknown as SessionListAnswer;
    const target = sessions.find((session) => !session.current);

    const stranger = await api.member();
    expect(await stranger.client.post(ACCOUNT_SETTINGS_API.endSession, { id: target?.id })).toMatchObject({
      status: 404,
      body: { error: { code: 'NOT_FOUND' } },
    });
    expect((await other.get(ACCOUNT_API.account)).status).toBe(200);

    expect((await client.post(ACCOUNT_SETTINGS_API.endSession, { id: target?.id })).status).toBe(200);
    expect((await other.get(ACCOUNT_API.account)).body).toEqual({ error: { code: 'UNAUTHORIZED' } });
    expect((await client.get(ACCOUNT_API.account)).status).toBe(200);
    expect(await client.post(ACCOUNT_SETTINGS_API.endSession, { id: target?.id })).toMatchObject({ status: 404 });
  });

  it('ends this browser’s own session as a sign-out, cookie and all', async () => {
    const { client } = await api.member();
    const { sessions } = (await client.get(ACCOUNT_SETTINGS_API.sessions)).body as unknown as SessionListAnswer;
    expect((await client.post(ACCOUNT_SETTINGS_API.endSession, { id: sessions[0]?.id })).status).toBe(200);
    expect(client.cookies.has('__Host-session')).toBe(false);
    expect((await client.get(ACCOUNT_SETTINGS_API.sessions)).status).toBe(401);
  });

  it('ends every other session and says how many', async () => {
    const { client, person } = await api.member();
    const others = [api.client(), api.client()];
    for (const other of others) await other.post(ACCOUNT_API.login, { email: person.email, password: person.password });
    expect((await client.post(ACCOUNT_SETTINGS_API.endOtherSessions, {})).body).toEqual({ ended: 2 });
    for (const other of others) expect((await other.get(ACCOUNT_API.account)).status).toBe(401);
    expect((await client.get(ACCOUNT_SETTINGS_API.sessions)).body).toMatchObject({ sessions: [{ current: true }] });
    expect((await client.post(ACCOUNT_SETTINGS_API.endOtherSessions, {})).body).toEqual({ ended: 0 });
  });

  it('answers junk with a 4xx and an error code, and nobody without a session', async () => {
    const { client } = await api.member();
    for (const body of [{}, { id: 'not-an-id' }, { id: 42 }, [], 'text', { id: null }]) {
      const answer = await client.post(ACCOUNT_SETTINGS_API.endSession, body);
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(answer.body).toMatchObject({ error: { code: expect.any(String) } });
    }
    const nobody = api.client();
    expect((await nobody.get(ACCOUNT_SETTINGS_API.sessions)).body).toEqual({ error: { code: 'UNAUTHORIZED' } });
    expect((await nobody.post(ACCOUNT_SETTINGS_API.endOtherSessions, {})).status).toBe(401);
    expect((await nobody.post(ACCOUNT_SETTINGS_API.endSession, { id: crypto.randomUUID() })).status).toBe(401);
  });
});
