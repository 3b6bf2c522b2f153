import { beforeAll, expect, it } from 'vitest';
import { ACCOUNT_API } from '#common/account-api.ts';
import { storageEntry } from '#common/storage.ts';
import type { ApiApp } from '#server/app.ts';
import { accountPerson, describeApi, type TestClient } from '#tests/support/api.ts';
import { hashOf } from '#tests/support/inline-code.ts';
import { codeIn } from '#tests/support/people.ts';
import { renderedPages, STAND_IN_CSS } from '#tests/support/rendered-pages.ts';
import { giveSecondFactor } from '#tests/support/second-factor.ts';

/** A form as the browser posts it without JavaScript, from the page's hidden language field on. */
async function post(client: TestClient, path: string, fields: Record<string, string>, headers = {}) {
  const response = await client.fetch('POST', path, new URLSearchParams({ language: 'en', ...fields }).toString(), {
    'Content-Type': 'application/x-www-form-urlencoded',
    ...headers,
  });
  return { status: response.status, headers: response.headers, html: await response.text() };
}

/** The form's fields as the register page sends them, checkbox and all. */
const registerFields = (person: ReturnType<typeof accountPerson>) => ({
  name: person.name,
  email: person.email,
  phoneCountry: 'GB',
  phone: person.phone,
  password: person.password,
  acceptTerms: 'on',
  website: '',
});

/** The input of this name in a page, as one tag. */
const inputTag = (html: string, name: string) => html.match(new RegExp(`<input\\b[^>]*\\bname="${name}"[^>]*>`))?.[0];

describeApi('account forms posted without JavaScript', (api) => {
  let app: ApiApp;
  /** The code in the mail to `email`, after the `skip` that came before it. */
  const mailTo = async (email: string, skip = 0) => codeIn((await api.mail().waitFor(email, skip)).text);

  beforeAll(async () => {
    const pages = await renderedPages([
      '/en/register',
      '/de/register',
      '/en/validation',
      '/en/login',
      '/en/forgot-password',
      '/en/forgot-password/code',
    ]);
    app = api.app({ pages });
  }, 60_000);

  it('registers, then confirms the address, each answered with a redirect where the app goes', async () => {
    const client = api.client(app);
    const person = accountPerson();
    const registered = await post(client, ACCOUNT_API.register, registerFields(person));
    expect(registered.status).toBe(303);
    expect(registered.headers.get('Location')).toBe(`/en/validation#${new URLSearchParams({ email: person.email })}`);
    const code = await mailTo(person.email);

    const verified = await post(client, ACCOUNT_API.verify, { email: person.email, code });
    expect(verified.status).toBe(303);
    expect(verified.headers.get('Location')).toBe('/en/account');
    // The session cookies came with the redirect: the account page is this browser's now.
    expect(client.cookies.get(storageEntry('signedIn').name)).toBe('1');
    expect((await client.get(ACCOUNT_API.session)).body).toEqual({ account: { name: person.name } });
  });

  it('answers a refused registration with its page: errors under the fields, what was typed kept but the password', async () => {
    const person = accountPerson({ name: 'Grace <b>Hopper</b>' });
    const answer = await post(api.client(app), ACCOUNT_API.register, {
      ...registerFields(person),
      email: 'not an address',
      acceptTerms: '',
    });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('Content-Type')).toMatch(/^text\/html/);
    const { html } = answer;
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).toContain('<title>Error: Create an account');
    expect(html).not.toContain('<script');
    // Its policy allows the styles it kept and no script, since it has none.
    const policy = answer.headers.get('Content-Security-Policy') ?? '';
    expect(policy).toContain(`style-src 'self' ${hashOf(STAND_IN_CSS)}`);
    expect(policy).toContain("script-src 'self';");
    expect(html).toContain('<p class="field__error" role="alert">Some fields need your attention.</p>');
    // The email field: marked, described by its error, and still holding what was typed.
    expect(inputTag(html, 'email')).toContain('aria-invalid="true"');
    expect(inputTag(html, 'email')).toContain('aria-describedby="register-email-error"');
    expect(inputTag(html, 'email')).toContain('value="not an address"');
    expect(html).toContain('<p id="register-email-error" class="field__error">Please enter a valid email address.</p>');
    expect(html).toMatch(/<div class="field field--invalid"><label for="register-email">/);
    expect(html).toMatch(/<div class="field field--invalid field--check"><input[^>]*name="acceptTerms"/);
    expect(html).not.toContain('field--invalid__');
    expect(inputTag(html, 'acceptTerms')).toContain('aria-invalid="true"');
    expect(inputTag(html, 'acceptTerms')).not.toContain('checked');
    // The name (no < or > allowed) is the first refused field in the page, so it takes the focus;
    // what was typed comes back written safely.
    expect(inputTag(html, 'name')).toContain('autofocus=""');
    expect(inputTag(html, 'email')).not.toContain('autofocus');
    expect(inputTag(html, 'name')).toContain('value="Grace &lt;b&gt;Hopper&lt;/b&gt;"');
    // The phone number is kept and was fine; the password is never written back.
    expect(inputTag(html, 'phone')).toContain(`value="${person.phone}"`);
    expect(inputTag(html, 'phone')).not.toContain('aria-invalid');
    expect(inputTag(html, 'password')).toContain('value=""');
    expect(html).not.toContain(person.password);
  });

  it('says in the page’s language that an address is taken, with the 409 of the JSON call', async () => {
    const { person } = await api.registered();
    const answer = await post(api.client(app), ACCOUNT_API.register, {
      ...registerFields(accountPerson()),
      email: person.email,
      language: 'de',
    });
    expect(answer.status).toBe(409);
    expect(answer.html).toMatch(/^<!doctype html>\n<html lang="de"/);
    expect(answer.html).toContain('Bitte überprüfen Sie Ihre Angaben in einigen Feldern.');
    expect(answer.html).toContain('<p id="register-email-error" class="field__error">');
    expect(inputTag(answer.html, 'acceptTerms')).toContain('checked=""');
  });

  it('refuses a wrong code on the validation page, keeping the address', async () => {
    const { person } = await api.registered();
    const answer = await post(api.client(app), ACCOUNT_API.verify, { email: person.email, code: '000000' });
    expect(answer.status).toBe(400);
    expect(inputTag(answer.html, 'email')).toContain(`value="${person.email}"`);
    expect(inputTag(answer.html, 'code')).toContain('aria-invalid="true"');
    expect(answer.html).toContain('id="validation-code-error"');
  });

  it('signs in with the same cookies as the app, and says why not when the password is wrong', async () => {
    const { person } = await api.member();
    const client = api.client(app);
    const wrong = await post(client, ACCOUNT_API.login, { email: person.email, password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect(inputTag(wrong.html, 'email')).toContain(`value="${person.email}"`);
    expect(wrong.html).toContain('role="alert">The email address or the password is not correct.');
    expect(wrong.html).not.toContain('not the password');

    const right = await post(client, ACCOUNT_API.login, { email: person.email, password: person.password });
    expect(right.status).toBe(303);
    expect(right.headers.get('Location')).toBe('/en/account');
    expect(right.headers.getSetCookie().map((line) => line.split('=')[0])).toEqual(
      expect.arrayContaining([storageEntry('session').name, storageEntry('signedIn').name]),
    );
    expect((await client.get(ACCOUNT_API.session)).body).toEqual({ account: { name: person.name } });
  });

  it('sends an address not yet confirmed to the validation page, and says a second factor needs the app', async () => {
    const { person } = await api.registered();
    const unverified = await post(api.client(app), ACCOUNT_API.login, {
      email: person.email,
      password: person.password,
    });
    expect(unverified.status).toBe(303);
    expect(unverified.headers.get('Location')).toBe(`/en/validation#${new URLSearchParams({ email: person.email })}`);

    const { person: guarded } = await api.member();
    await giveSecondFactor(api.db(), guarded.email);
    const client = api.client(app);
    const answer = await post(client, ACCOUNT_API.login, { email: guarded.email, password: guarded.password });
    expect(answer.status).toBe(403);
    expect(answer.html).toContain('and that step needs JavaScript');
    expect(client.cookies.has(storageEntry('session').name)).toBe(false);
  });

  it('resets a forgotten password in two pages, ending on the sign-in page with a notice', async () => {
    const { person } = await api.member();
    const client = api.client(app);
    const asked = await post(client, ACCOUNT_API.forgotPassword, { email: person.email });
    expect(asked.status).toBe(303);
    expect(asked.headers.get('Location')).toBe(
      `/en/forgot-password/code#${new URLSearchParams({ email: person.email })}`,
    );
    // The first mail was the code of its registration.
    const code = await mailTo(person.email, 1);

    const wrong = await post(client, ACCOUNT_API.resetPassword, {
      email: person.email,
      code: '000000',
      password: 'a new password 1',
    });
    expect(wrong.status).toBe(400);
    expect(inputTag(wrong.html, 'email')).toContain(`value="${person.email}"`);
    expect(wrong.html).toContain('id="forgot-code-error"');
    expect(wrong.html).not.toContain('a new password 1');

    const done = await post(client, ACCOUNT_API.resetPassword, {
      email: person.email,
      code,
      password: 'a new password 1',
    });
    expect(done.status).toBe(303);
    const notice = await client.fetch('GET', done.headers.get('Location') ?? '');
    expect(notice.status).toBe(200);
    const html = await notice.text();
    expect(html).toContain('<p class="auth__notice" role="status">Your password has been changed');
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).toContain('action="/api/auth/login"');

    const signedIn = await post(client, ACCOUNT_API.login, { email: person.email, password: 'a new password 1' });
    expect(signedIn.headers.get('Location')).toBe('/en/account');
  });

  it('keeps the limits: a second code within 30 seconds is refused with 429 and Retry-After, in the page', async () => {
    const { person } = await api.member();
    const client = api.client(app);
    expect((await post(client, ACCOUNT_API.forgotPassword, { email: person.email })).status).toBe(303);
    const again = await post(client, ACCOUNT_API.forgotPassword, { email: person.email });
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(again.html).toMatch(
      /<p class="field__error" role="alert">Too many attempts\. Please wait \d+ seconds? and try again\.<\/p>/,
    );
    expect(inputTag(again.html, 'email')).toContain(`value="${person.email}"`);
  });

  it('keeps the visitor check and the Origin check of the JSON calls', async () => {
    const { person } = await api.member();
    const forged = api.client(app);
    forged.cookies.set(storageEntry('visitorId').name, 'forged');
    const refused = await post(forged, ACCOUNT_API.login, { email: person.email, password: person.password });
    expect(refused.status).toBe(403);
    expect(refused.html).toContain('role="alert"');

    const fromElsewhere = await post(
      api.client(app),
      ACCOUNT_API.login,
      { email: person.email, password: person.password },
      { Origin: 'https://evil.example' },
    );
    expect(fromElsewhere.status).toBe(403);
    expect(JSON.parse(fromElsewhere.html)).toEqual({ error: { code: 'INVALID_REQUEST' } });
  });

  it('without built pages answers with a short page that links back to the form', async () => {
    const answer = await post(api.client(), ACCOUNT_API.verify, { email: 'a@example.com', code: '000000' });
    expect(answer.status).toBe(400);
    expect(answer.html).toContain('<meta name="robots" content="noindex">');
    expect(answer.html).toContain('<a href="/en/validation">');
  });
});
