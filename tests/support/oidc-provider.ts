// A real OpenID provider on loopback (panva's oidc-provider, the certified implementation), with
// keys of its own and one test client, for the sign-in tests. Its sign-in page is a plain form
// where the test says who signs in and what the provider says about them.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { TEST_OIDC_CLIENT } from './oidc-client.ts';

export { TEST_OIDC_CLIENT };

/** Someone at the provider, new to the site, with a verified address unless told otherwise. */
export function newProviderPerson(overrides: Partial<ProviderPerson> = {}): ProviderPerson {
  const tag = randomBytes(4).toString('hex');
  return {
    subject: `sub-${tag}`,
    email: `grace-${tag}@example.com`,
    emailVerified: true,
    name: 'Grace Hopper',
    ...overrides,
  };
}

/** The server settings that offer `provider` as `test` ("Test ID"). */
export const testProviderSettings = (provider: TestOidcProvider) => ({
  oidcProviders: [
    {
      id: 'test',
      name: 'Test ID',
      issuer: provider.issuer,
      clientId: TEST_OIDC_CLIENT.id,
      clientSecret: TEST_OIDC_CLIENT.secret,
    },
  ],
});

/** Who signs in at the provider, as its sign-in form takes them. */
export interface ProviderPerson {
  subject: string;
  email: string;
  emailVerified: boolean;
  name: string;
  /** Authentication methods the provider reports in the ID token (RFC 8176), e.g. ['pwd', 'mfa']. */
  amr?: string[];
  /** When the person signed in there (seconds since 1970; now by default): the ID token's `auth_time`. */
  authTime?: number;
}

export interface TestOidcProvider {
  issuer: string;
  /** Makes the provider fail every call (it answers 503) until `up` is called: a provider that is down. */
  down(): void;
  up(): void;
  close(): Promise<void>;
}

const page = (body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test provider</title></head><body><main>${body}</main></body></html>`;

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (ch) => `&#${ch.charCodeAt(0)};`);

const readForm = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
};

/** Starts the provider on a loopback port (0: any free one), for a client that returns to `redirectUris`. */
export async function startTestOidcProvider(redirectUris: string[], port = 0): Promise<TestOidcProvider> {
  const people = new Map<string, Omit<ProviderPerson, 'subject' | 'amr' | 'authTime'>>();
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'test-key', alg: 'RS256', use: 'sig' };
  let failing = false;

  const server = createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: TEST_OIDC_CLIENT.id,
        client_secret: TEST_OIDC_CLIENT.secret,
        redirect_uris: redirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    // biome-ignore lint/suspicious/noExplicitAny: the JWK node exports is the JWK the provider takes
    jwks: { keys: [jwk as any] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    // With `openid` the ID token carries the methods the sign-in form reported (`amr`).
    claims: { openid: ['sub', 'amr'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, subject) => {
      const person = people.get(subject);
      if (!person) return undefined;
      return {
        accountId: subject,
        claims: () => ({ sub: subject, email: person.email, email_verified: person.emailVerified, name: person.name }),
      };
    },
  });
  const callback = provider.callback();

  // The provider's own sign-in step: a form that says who signs in; consent is given at once.
  const interaction = async (req: IncomingMessage, res: ServerResponse, uid: string, action: string | undefined) => {
    const details = await provider.interactionDetails(req, res);
    if (action === 'abort') {
      const result = { error: 'access_denied', error_description: 'The person cancelled' };
      return provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
    }
    if (details.prompt.name === 'consent') {
      const grant = new provider.Grant({ accountId: details.session?.accountId, clientId: TEST_OIDC_CLIENT.id });
      grant.addOIDCScope('openid email profile');
      const grantId = await grant.save();
      return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    }
    if (action === 'login' && req.method === 'POST') {
      const form = await readForm(req);
      const subject = form.get('subject') ?? '';
      people.set(subject, {
        email: form.get('email') ?? '',
        emailVerified: form.get('email_verified') === 'yes',
        name: form.get('name') ?? '',
      });
      const amr = (form.get('amr') ?? 'pwd').split(',').filter(Boolean);
      // A sign-in the test dates back: what a provider that kept an old session would report.
      const ts = Number(form.get('ts')) || undefined;
      return provider.interactionFinished(
        req,
        res,
        { login: { accountId: subject, amr, ts } },
        { mergeWithLastSubmission: false },
      );
    }
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end(
      page(`<h1>Test provider</h1>
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<p><label>Subject <input name="subject" required></label></p>
<p><label>Email <input name="email" type="email"></label></p>
<p><label><input name="email_verified" type="checkbox" value="yes"> Email verified</label></p>
<p><label>Name <input name="name"></label></p>
<p><label>Methods <input name="amr" value="pwd"></label></p>
<p><button type="submit">Continue</button></p>
</form>
<form method="post" action="/interaction/${escapeHtml(uid)}/abort"><p><button type="submit">Cancel</button></p></form>`),
    );
  };

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (failing) {
      res.writeHead(503).end();
      return;
    }
    const match = /^\/interaction\/([^/?]+)(?:\/(login|abort))?/.exec(req.url ?? '');
    if (!match?.[1]) return callback(req, res);
    interaction(req, res, match[1], match[2]).catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });

  return {
    issuer,
    down: () => {
      failing = true;
    },
    up: () => {
      failing = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Goes through the provider as a browser would, from the authorization address the site sent the
 * browser to: its sign-in form filled in for `person` (or cancelled), consent given, up to the
 * redirect back to the site. Returns that address.
 */
export async function passProvider(authorizationUrl: string, person: ProviderPerson | 'cancel'): Promise<URL> {
  const jar = new Map<string, string>();
  const origin = new URL(authorizationUrl).origin;
  let next = new URL(authorizationUrl);
  let body: URLSearchParams | undefined;
  for (let step = 0; step < 10; step += 1) {
    if (next.origin !== origin) return next;
    const response = await fetch(next, {
      method: body ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body,
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    body = undefined;
    const location = response.headers.get('location');
    if (location) {
      next = new URL(location, next);
      continue;
    }
    const html = await response.text();
    const uid = /\/interaction\/([^/"]+)\/login/.exec(html)?.[1];
    if (!uid) throw new Error(`The provider answered ${response.status} without a sign-in form: ${html.slice(0, 200)}`);
    if (person === 'cancel') {
      next = new URL(`/interaction/${uid}/abort`, origin);
      body = new URLSearchParams();
    } else {
      next = new URL(`/interaction/${uid}/login`, origin);
      body = new URLSearchParams({
        subject: person.subject,
        email: person.email,
        name: person.name,
        amr: (person.amr ?? ['pwd']).join(','),
        ...(person.emailVerified ? { email_verified: 'yes' } : {}),
        ...(person.authTime ? { ts: String(person.authTime) } : {}),
      });
    }
  }
  throw new Error('The provider kept redirecting');
}
