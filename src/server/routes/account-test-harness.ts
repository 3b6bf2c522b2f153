import { randomBytes } from 'node:crypto';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe } from 'vitest';
import { AUTH_API } from '../../common/account-api.ts';
import { TEST_SECRET } from '../api-test-kit.ts';
import { type AppOptions, createApp } from '../app.ts';
import type { HashingParams } from '../auth/passwords.ts';
import { type Database, openDatabase } from '../db/database.ts';
import type { TestStore, TestTarget } from '../db/test-databases.ts';
import { targets } from '../db/test-databases.ts';
import { smtpMailer } from '../mail/mailer.ts';
import { startTestMailServer, type TestMailServer } from '../mail/test-mail-server.ts';
import { securityHeaders } from '../security-headers.ts';
import { readSiteConfig, readTexts } from '../site-files.ts';
import { issueFpid } from '../visitor/fpid.ts';
import { FPID_COOKIE } from '../visitor/require-visitor.ts';

/** Far below OWASP's parameters, so that the suite runs fast; only tests may use this. */
export const TEST_HASHING: HashingParams = { memoryCost: 1024, timeCost: 1, parallelism: 1 };
export const ORIGIN = 'http://localhost';

const site = await readSiteConfig();
const texts = await readTexts();

export interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

let clients = 0;
let people = 0;

export type Person = ReturnType<typeof newPerson>;

/** Someone new: an email address and a phone number no other test uses. */
export function newPerson(overrides: Record<string, unknown> = {}) {
  const n = ++people;
  const tag = randomBytes(4).toString('hex');
  return {
    name: `Ada Lovelace ${n}`,
    email: `ada-${tag}-${n}@example.com`,
    phone: `+44 20 ${String(Number.parseInt(tag, 16) % 10_000_000).padStart(7, '0')}${n % 10}`,
    password: `correct horse ${tag}`,
    acceptTerms: true,
    language: 'en',
    ...overrides,
  };
}

/**
 * One browser: it keeps its cookies (a valid visitor identifier from the start), sends the site's
 * Origin and JSON like the real pages do, and comes from an address of its own (through one trusted
 * proxy), so that per-client limits of one test do not reach another.
 */
export class TestClient {
  readonly cookies = new Map<string, string>();
  readonly address: string;
  private readonly app: Hono;

  constructor(app: Hono) {
    this.app = app;
    const n = ++clients;
    this.address = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
    this.cookies.set(FPID_COOKIE, issueFpid(TEST_SECRET, `visitor-${n}`));
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
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
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const [name = '', value = ''] = pair.split('=');
      const gone = value === '' || attributes.some((attribute) => /^\s*max-age=0$/i.test(attribute));
      if (gone) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
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

export interface AccountHarness {
  app: Hono;
  db: Database;
  mail: TestMailServer;
  client(): TestClient;
  /** Someone who registered (not yet verified): their browser, details and mailed code. */
  registered(overrides?: Record<string, unknown>): Promise<{ client: TestClient; person: Person; code: string }>;
  /** A verified member, signed in in the browser they registered with. */
  member(overrides?: Record<string, unknown>): Promise<{ client: TestClient; person: Person }>;
  /** Runs `UPDATE <table> SET <assignment>` on the rows of the account with this address. */
  age(table: 'sessions' | 'account_codes', assignment: string, email: string, ...params: unknown[]): Promise<void>;
  /** Another app on the same database and mail server, with some options changed. */
  appWith(options: Partial<AppOptions>): Hono;
  close(): Promise<void>;
}

/** A server on a fresh database of `target`, sending its mail to a real SMTP server on loopback. */
export async function startAccountHarness(target: TestTarget): Promise<AccountHarness> {
  const store: TestStore = await target.createStore();
  const db = await openDatabase(store.options);
  const mail = await startTestMailServer();
  const options: AppOptions = {
    security: securityHeaders({ scripts: [], styles: [] }),
    db,
    secret: TEST_SECRET,
    trustedProxies: 1,
    site,
    texts,
    mailer: smtpMailer(mail.url, 'Test <no-reply@example.com>'),
    passwordHashing: TEST_HASHING,
  };
  const app = createApp(options);
  const registered = async (overrides: Record<string, unknown> = {}) => {
    const client = new TestClient(app);
    const person = newPerson(overrides);
    const answer = await client.post(AUTH_API.register, person);
    if (answer.status !== 201) throw new Error(`Registration answered ${answer.status}`);
    return { client, person, code: codeIn((await mail.waitFor(person.email)).text) };
  };
  return {
    app,
    db,
    mail,
    client: () => new TestClient(app),
    registered,
    async member(overrides) {
      const { client, person, code } = await registered(overrides);
      const answer = await client.post(AUTH_API.verify, { email: person.email, code });
      if (answer.status !== 200) throw new Error(`Verification answered ${answer.status}`);
      return { client, person };
    },
    async age(table, assignment, email, ...params) {
      await db.query(
        `UPDATE ${table} SET ${assignment} WHERE account_id = (SELECT id FROM accounts WHERE email = $1)`,
        [email, ...params],
      );
    },
    appWith: (changes) => createApp({ ...options, ...changes }),
    async close() {
      await mail.stop();
      await db.close();
      await store.drop();
    },
  };
}

/** The six-digit code of a mail. */
export function codeIn(mailText: string): string {
  const code = /^\s+(\d{6})$/m.exec(mailText)?.[1];
  if (!code) throw new Error(`No code in mail:\n${mailText}`);
  return code;
}

/**
 * Declares a suite once per test database, with an account harness started before its tests and
 * closed after them: PGlite always, PostgreSQL when TEST_DATABASE_URL points at one (CI sets it;
 * otherwise that suite is reported as skipped).
 */
export function describeAccounts(name: string, body: (harness: () => AccountHarness) => void) {
  for (const target of targets) {
    describe.skipIf(target.skip)(`${name} on ${target.name}`, () => {
      let harness: AccountHarness;
      beforeAll(async () => {
        harness = await startAccountHarness(target);
      }, 60_000);
      afterAll(() => harness?.close());
      body(() => harness);
    });
  }
}
