import type { AddOptionsAnswer, PasskeyAddedAnswer, SignInOptionsAnswer } from '#common/passkey-api.ts';
import { PASSKEY_API } from '#common/passkey-api.ts';
import { relyingParty } from '#server/features/accounts/index.ts';
import { loadSiteConfig } from '#server/platform/site-config.ts';
import type { ApiSuite, TestClient } from './api.ts';
import { createSoftAuthenticator, type SoftPasskey } from './soft-authenticator.ts';

/** The site's relying party, as the server takes it from `siteUrl`, and a software authenticator for it. */
export const site = await loadSiteConfig();
const origin = relyingParty(site.siteUrl, site.brand.siteName).origins[0] as string;
export const authenticator = createSoftAuthenticator(origin);

/** The passkey a browser makes for the signed-in member, added with the password; the answer and the passkey. */
export async function addThroughApi(client: TestClient, password: string, name = 'Laptop') {
  const options = (await client.post(PASSKEY_API.addOptions, {})).body as unknown as AddOptionsAnswer;
  const made = authenticator.create(options.options);
  const added = await client.post(PASSKEY_API.add, {
    ceremony: options.ceremony,
    name,
    password,
    response: made.response,
  });
  return { added, passkey: made.passkey, options };
}

/** A member with one passkey, added in `client` (their first second factor, so with recovery codes). */
export async function memberWithPasskey(api: ApiSuite) {
  const { client, person } = await api.member();
  const { added, passkey } = await addThroughApi(client, person.password);
  if (added.status !== 201) throw new Error(`Adding a passkey answered ${added.status} ${JSON.stringify(added.body)}`);
  return { client, person, passkey, answer: added.body as unknown as PasskeyAddedAnswer };
}

/** Signs in with the passkey in a new browser, as the sign-in page's button does. */
export async function signInWith(api: ApiSuite, passkey: SoftPasskey, client: TestClient = api.client()) {
  const options = (await client.post(PASSKEY_API.signInOptions, {})).body as unknown as SignInOptionsAnswer;
  const response = authenticator.assert(passkey, options.options);
  const answer = await client.post(PASSKEY_API.signIn, { ceremony: options.ceremony, response });
  return { client, answer, options, response };
}
