import { afterAll, beforeAll } from 'vitest';
import { ACCOUNT_API } from '#common/account-api.ts';
import { storageEntry } from '#common/storage.ts';
import { type ApiApp, type AppOptions, createApp, JOBS } from '#server/app.ts';
import { createPasswords, type HashingParams } from '#server/features/accounts/index.ts';
import { issueFpid } from '#server/features/visitor/index.ts';
import { securityHeaders } from '#server/http/security-headers.ts';
import type { Database } from '#server/platform/db/database.ts';
import { type JobRunner, startJobRunner } from '#server/platform/jobs/jobs.ts';
import { type Mailer, smtpMailer } from '#server/platform/mail/mailer.ts';
import { loadSiteConfig, readTexts } from '#server/platform/site-config.ts';
import { describeOnDatabases, type TestStore, type TestTarget } from './databases.ts';
import { startTestMailServer, type TestMailServer } from './mail-server.ts';
import { codeIn, newPerson } from './people.ts';

export const TEST_SECRET = Buffer.alloc(32, 7);
/** Far below OWASP's parameters, so that the suite runs fast; only tests may use this. */
export const TEST_HASHING: HashingParams = { memoryCost: 1024, timeCost: 1, parallelism: 1 };
/** The site address of every test app: its pages' Origin. */
export const ORIGIN = 'http://localhost';

const site = await loadSiteConfig();
const texts = await readTexts();

/**
 * What `npm run staff` runs with, on the suite's database, with test hashing: `mailKept` and
 * `site` as the command would see them without SMTP or on another port.
 */
export async function staffCommandContext(db: Database, overrides: { mailKept?: boolean; site?: typeof site } = {}) {
  return { db, secret: TEST_SECRET, site, passwords: createPasswords(TEST_HASHING), mailKept: false, ...overrides };
}

let addresses = 0;
/** A client address no other test uses, so rate limits of one test never touch another. */
export const freshAddress = () => {
  const n = ++addresses;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};

export interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/**
 * One browser: it keeps its cookies (a valid visitor identifier from the start), sends the site's
 * Origin and JSON like the real pages do, and comes from an address of its own (through one trusted
 * proxy), so that per-client limits of one test do not reach another.
 */
export class TestClient {
  readonly cookies = new Map<string, string>();
  readonly address = freshAddress();
  private readonly app: ApiApp;

  constructor(app: ApiApp) {
    this.app = app;
    this.cookies.set(storageEntry('visitorId').name, issueFpid(TEST_SECRET, `visitor-${this.address}`));
  }

  /** The answer as it comes, body unread (an event stream, say); cookies it sets are kept. */
  async fetch(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await this.app.request(path, {
      method,
      headers: {
        Origin: ORIGIN,
        'X-Forwarded-For': this.address,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(cookie ? { Cookie: cookie } : {}),
        ...headers,
      },
      body:
        body === undefined
          ? undefined
          : typeof body === 'string' || body instanceof Uint8Array
            ? (body as BodyInit)
            : JSON.stringify(body),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const [name = '', value = ''] = pair.split('=');
      const gone = value === '' || attributes.some((attribute) => /^\s*max-age=0$/i.test(attribute));
      if (gone) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const response = await this.fetch(method, path, body, headers);
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : {} };
  }

  post(path: string, body: unknown = {}, headers?: Record<string, string>) {
    return this.request('POST', path, body, headers);
  }

  get(path: string) {
    return this.request('GET', path);
  }
}

export type Person = ReturnType<typeof accountPerson>;
/** Someone new, as the registration form sends them. */
export const accountPerson = (overrides: Record<string, unknown> = {}) => ({
  ...newPerson(),
  acceptTerms: true,
  language: 'en',
  ...overrides,
});

/** What an API suite works with; every member may be destructured and is read when a test runs. */
export interface ApiSuite {
  /** The database the suite runs on, known when its tests are declared. */
  target: TestTarget;
  db(): Database;
  /** Where that database lives: another handle on it opens from `store().options` (PostgreSQL only: PGlite locks its directory). */
  store(): TestStore;
  /**
   * The app every test of the suite shares (test hashing, the real texts, mail to `mail()`), or,
   * with options, another app on the same database with those changed.
   */
  app(options?: Partial<AppOptions>): ApiApp;
  /** A real SMTP server on loopback; the jobs deliver the suite's mail to it. */
  mail(): TestMailServer;
  /** Delivers the suite's mail through `mailer` instead, until the returned function is called. */
  mailVia(mailer: Mailer): () => void;
  /**
   * A mail server that holds every mail it gets until `goDown` makes it refuse them all (and any
   * after): a delivery stays queued, then fails and is retried. Use it through `mailVia`.
   */
  holdingMailer(): { mailer: Mailer; holding: () => boolean; goDown: () => void };
  /** Runs every job due now, here, instead of waiting for the runner's next poll. */
  runJobs(): Promise<number>;
  client(app?: ApiApp): TestClient;
  /** Someone who registered (not yet verified): their browser, details and mailed code. */
  registered(overrides?: Record<string, unknown>): Promise<{ client: TestClient; person: Person; code: string }>;
  /** A verified member, signed in in the browser they registered with. */
  member(overrides?: Record<string, unknown>): Promise<{ client: TestClient; person: Person }>;
  /** Runs `UPDATE <table> SET <assignment>` on the rows of the account with this address. */
  age(table: 'sessions' | 'account_codes', assignment: string, email: string, ...params: unknown[]): Promise<void>;
}

/**
 * API tests through `app.request()` on every test database, with the app, a real SMTP server and
 * the job runner (polling fast) started before the suite's tests and stopped after them.
 */
export function describeApi(name: string, body: (suite: ApiSuite) => void) {
  describeOnDatabases(name, (db, { target, store }) => {
    let mail: TestMailServer;
    let runner: JobRunner;
    let shared: ApiApp;
    let smtp: Mailer;
    let mailer: Mailer;
    const base = (): AppOptions => ({
      security: securityHeaders(),
      db: db(),
      secret: TEST_SECRET,
      trustedProxies: 1,
      site,
      texts,
      // Mail goes to the suite's SMTP server.
      settings: { passwordHashing: TEST_HASHING, mailKept: false },
    });
    beforeAll(async () => {
      mail = await startTestMailServer();
      shared = createApp(base());
      smtp = smtpMailer(mail.url, 'Test <no-reply@example.com>');
      mailer = smtp;
      const current: Mailer = {
        send: (message) => mailer.send(message),
        get keeps() {
          return mailer.keeps;
        },
      };
      runner = startJobRunner({ db: db(), mailer: current, site, texts }, JOBS, { pollMs: 20 });
    }, 60_000);
    afterAll(async () => {
      await runner?.stop();
      await mail?.stop();
    });

    const app = (options?: Partial<AppOptions>) =>
      options ? createApp({ ...base(), ...options, settings: { ...base().settings, ...options.settings } }) : shared;
    const registered = async (overrides: Record<string, unknown> = {}) => {
      const client = new TestClient(shared);
      const person = accountPerson(overrides);
      const answer = await client.post(ACCOUNT_API.register, person);
      if (answer.status !== 201) throw new Error(`Registration answered ${answer.status}`);
      return { client, person, code: codeIn((await mail.waitFor(person.email)).text) };
    };
    body({
      target,
      db,
      store,
      app,
      mail: () => mail,
      mailVia(other) {
        mailer = other;
        return () => {
          mailer = smtp;
        };
      },
      holdingMailer() {
        const held: (() => void)[] = [];
        let down = false;
        const refusal = () => new Error('mail server down');
        return {
          mailer: {
            send: () =>
              down
                ? Promise.reject(refusal())
                : new Promise<void>((_, reject) => {
                    held.push(() => reject(refusal()));
                  }),
          },
          holding: () => held.length > 0,
          goDown() {
            down = true;
            for (const refuse of held.splice(0)) refuse();
          },
        };
      },
      runJobs: () => runner.runDue(),
      client: (other = shared) => new TestClient(other),
      registered,
      async member(overrides) {
        const { client, person, code } = await registered(overrides);
        const answer = await client.post(ACCOUNT_API.verify, { email: person.email, code });
        if (answer.status !== 200) throw new Error(`Verification answered ${answer.status}`);
        return { client, person };
      },
      async age(table, assignment, email, ...params) {
        await db().query(
          `UPDATE ${table} SET ${assignment} WHERE account_id = (SELECT id FROM accounts WHERE email = $1)`,
          [email, ...params],
        );
      },
    });
  });
}
