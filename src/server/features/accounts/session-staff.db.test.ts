import { expect, it } from 'vitest';
import { ACCOUNT_API } from '#common/account-api.ts';
import { describeApi } from '#tests/support/api.ts';

describeApi('the session answer and the way to the console', (api) => {
  it('tells the header that an editor, operator or admin is staff, and nobody else', async () => {
    const { client: member, person } = await api.member();
    expect((await member.get(ACCOUNT_API.session)).body).toEqual({ account: { name: person.name } });
    for (const role of ['editor', 'operator', 'admin']) {
      await api.db().query('UPDATE accounts SET role = $2 WHERE email = $1', [person.email, role]);
      expect((await member.get(ACCOUNT_API.session)).body).toEqual({ account: { name: person.name, staff: true } });
    }
    expect((await api.client().get(ACCOUNT_API.session)).body).toEqual({ account: null });
  });
});
